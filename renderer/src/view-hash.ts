import type { AppStore } from './store/store.js';
import { VIEWS, type ViewName } from './store/ui-slice.js';

/** `#/throughput` → 'throughput'; anything else → null (the current view stays). */
export function viewFromHash(hash: string): ViewName | null {
  const name = hash.replace(/^#\/?/, '');
  return (VIEWS as readonly string[]).includes(name) ? (name as ViewName) : null;
}

/**
 * Keeps the view and the URL hash in step, so a wall screen can be pointed at `…/#/throughput` and the desktop
 * menu's View items (which load `#/<view>`) switch views.
 */
export function syncViewWithHash(store: AppStore, win: Pick<Window, 'location' | 'history' | 'addEventListener'>): void {
  const fromHash = (): void => {
    const view = viewFromHash(win.location.hash);
    if (view && view !== store.getState().ui.view) store.setUi({ view });
  };
  fromHash();
  win.addEventListener('hashchange', fromHash);
  store.subscribe((state, previous) => {
    if (state.ui.view === previous.ui.view) return;
    const hash = `#/${state.ui.view}`;
    if (win.location.hash !== hash) win.history.replaceState(null, '', hash);
  });
}
