import type { DensitySetting } from '../view-model/nodes/grid-rows.js';
import type { AppStore } from './store.js';
import { THEMES, WINDOWS, type PhaseMark, type UiState } from './ui-slice.js';

export const DENSITIES: readonly DensitySetting[] = ['auto', 'comfortable', 'compact', 'dense'];

/** How one preference is kept in storage: a key, and a reader that refuses anything it did not write. */
interface Pref<K extends keyof UiState> {
  field: K;
  storageKey: string;
  read(text: string): UiState[K] | undefined;
  write(value: UiState[K]): string;
}

function oneOf<K extends keyof UiState>(field: K, storageKey: string, values: readonly UiState[K][]): Pref<K> {
  return { field, storageKey, read: (text) => values.find((v) => v === text), write: String };
}

function readMarks(text: string): readonly PhaseMark[] | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (!Array.isArray(value)) return undefined;
    return value.filter((m): m is PhaseMark => typeof m === 'object' && m !== null && Number.isSafeInteger((m as PhaseMark).at) && typeof (m as PhaseMark).label === 'string');
  } catch {
    return undefined;
  }
}

const PREFS = [
  oneOf('density', 'ndbtop.density', DENSITIES),
  oneOf('theme', 'ndbtop.theme', THEMES),
  oneOf('window', 'ndbtop.window', Object.keys(WINDOWS) as UiState['window'][]),
  { field: 'phaseMarks', storageKey: 'ndbtop.phaseMarks', read: readMarks, write: (marks: readonly PhaseMark[]) => JSON.stringify(marks) } satisfies Pref<'phaseMarks'>,
] as const;

/**
 * Display preferences that belong to this screen rather than to the engine's settings (a wall screen and a laptop
 * watching the same cluster want different densities and themes), and what the operator set up for a benchmark
 * (time window, phase marks) so a reload does not lose it: read from the browser's storage at start, written back on
 * change. Returns the unsubscribe function.
 */
export function persistUiPrefs(store: AppStore, storage: Pick<Storage, 'getItem' | 'setItem'>): () => void {
  const restored: Partial<UiState> = {};
  for (const pref of PREFS) {
    const saved = storage.getItem(pref.storageKey);
    const value = saved === null ? undefined : pref.read(saved);
    if (value !== undefined) Object.assign(restored, { [pref.field]: value });
  }
  if (Object.keys(restored).length > 0) store.setUi(restored);
  return store.subscribe((state, prev) => {
    for (const pref of PREFS) {
      const value = state.ui[pref.field];
      if (value !== prev.ui[pref.field]) storage.setItem(pref.storageKey, (pref.write as (v: typeof value) => string)(value));
    }
  });
}
