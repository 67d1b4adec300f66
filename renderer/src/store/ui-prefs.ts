import type { DensitySetting } from '../view-model/grid-rows.js';
import type { AppStore } from './store.js';

const DENSITY_KEY = 'ndbtop.density';
export const DENSITIES: readonly DensitySetting[] = ['auto', 'comfortable', 'compact'];

/**
 * Display preferences that belong to this screen rather than to the engine's settings (a wall screen and a laptop
 * watching the same cluster want different densities): read from the browser's storage at start, written back on
 * change. Returns the unsubscribe function.
 */
export function persistUiPrefs(store: AppStore, storage: Pick<Storage, 'getItem' | 'setItem'>): () => void {
  const saved = storage.getItem(DENSITY_KEY);
  const density = DENSITIES.find((d) => d === saved);
  if (density) store.setUi({ density });
  return store.subscribe((state, prev) => {
    if (state.ui.density !== prev.ui.density) storage.setItem(DENSITY_KEY, state.ui.density);
  });
}
