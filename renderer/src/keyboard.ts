import { FOCUS_FILTER_EVENT } from './components/events/EventLog.js';
import { RUN_PHASE_EVENT, RUN_TOGGLE_EVENT } from './components/header/RunControls.js';
import type { AppStore } from './store/store.js';
import { LETTER_KEYS, VIEWS, viewKey } from './store/ui-slice.js';
import { VIEW_NAMES } from './view-model/nav/view-names.js';

export const SHORTCUTS: ReadonlyArray<[string, string]> = [
  ['?', 'show or hide this help'],
  ['p', 'pause / resume the display (data keeps being collected)'],
  ['/', 'filter the event log'],
  ...VIEWS.map((v, i): [string, string] => [viewKey(i), `${VIEW_NAMES[v]} view`]),
  ['f', 'full-screen dashboard mode (the number keys switch what it shows)'],
  ['r', 'start a benchmark run, or stop the running one'],
  ['m', 'mark the next phase of the running run'],
  ['Esc', 'close dialogs, leave the filter'],
];

/** Dashboard mode hides the controls; the real full screen is asked for too, from the key press (a user gesture). */
export function toggleFullscreen(store: AppStore): void {
  const fullscreen = !store.getState().ui.fullscreen;
  store.setUi({ fullscreen });
  if (fullscreen) document.documentElement.requestFullscreen?.().catch(() => undefined);
  else if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
}

/** Inputs that take no typed text: a key pressed on one of them is a shortcut. */
const CHOICE_INPUTS = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color']);

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target instanceof HTMLInputElement) return !CHOICE_INPUTS.has(target.type);
  return target.isContentEditable || ['SELECT', 'TEXTAREA'].includes(target.tagName);
}

/**
 * Once a dropdown's choice is made the page gets the focus back, so the next key press is a shortcut again rather
 * than another pick in the dropdown (a "3" would choose an option starting with 3).
 */
export function releaseFocusAfterChoice(e: Event): void {
  if (e.target instanceof HTMLSelectElement) e.target.blur();
}

/** One keydown handler for the whole app; keys typed into a field are the field's, except Escape. */
export function handleKey(store: AppStore, e: KeyboardEvent): void {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const { ui } = store.getState();
  if (e.key === 'Escape') {
    if (isTyping(e.target) && e.target instanceof HTMLElement) e.target.blur();
    store.setUi({ helpOpen: false, pendingAction: null, selectedNodeId: null, panel: null });
    return;
  }
  if (isTyping(e.target)) return;
  const view = /^[0-9]$/.test(e.key) ? VIEWS[(Number(e.key) + 9) % 10] : VIEWS.find((v) => LETTER_KEYS[v] === e.key);
  if (view) {
    store.setUi({ view });
  } else if (e.key === '?') {
    store.setUi({ helpOpen: !ui.helpOpen });
  } else if (e.key === 'p') {
    store.setPaused(!ui.paused);
  } else if (e.key === 'f') {
    toggleFullscreen(store);
  } else if (e.key === 'r' || e.key === 'm') {
    window.dispatchEvent(new Event(e.key === 'r' ? RUN_TOGGLE_EVENT : RUN_PHASE_EVENT));
  } else if (e.key === '/') {
    if (ui.view !== 'nodes' && ui.view !== 'events') store.setUi({ view: 'events' });
    // The log may mount with the view switch; focus after React has rendered it.
    requestAnimationFrame(() => window.dispatchEvent(new Event(FOCUS_FILTER_EVENT)));
  } else {
    return;
  }
  e.preventDefault();
}
