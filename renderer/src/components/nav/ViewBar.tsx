import { toggleFullscreen } from '../../keyboard.js';
import { useApp, useAppContext } from '../../store/use-app.js';
import { VIEWS, viewKey } from '../../store/ui-slice.js';
import { VIEW_NAMES, viewTooltip } from '../../view-model/nav/view-names.js';
import { ClusterActions } from '../header/ClusterActions.js';
import { PanelLinks } from '../maintenance/Panels.js';
import './view-bar.css';

/**
 * One row, whatever the width from 1280 px up: a second row would take its height from the grid. Each tab shows its
 * view's one name (`VIEW_NAMES`, as the help does); the key in front of it switches to it from anywhere.
 */
export function ViewBar() {
  const { store } = useAppContext();
  const view = useApp((s) => s.ui.view);
  const error = useApp((s) => s.ui.error);
  return (
    <nav className="app-nav" aria-label="views" data-testid="view-bar">
      {VIEWS.map((v, i) => (
        <button key={v} type="button" className="view-tab" data-testid={`view-${v}`} aria-current={v === view ? 'page' : undefined} title={viewTooltip(v)} onClick={() => store.setUi({ view: v })}>
          <kbd>{viewKey(i)}</kbd> {VIEW_NAMES[v]}
        </button>
      ))}
      <ClusterActions />
      <span className="spacer" />
      {error && (
        <span className="tone-bad nav-error" title={error}>
          {error}
        </span>
      )}
      <PanelLinks />
      <button type="button" onClick={() => toggleFullscreen(store)} title="full-screen dashboard (f)" aria-label="Dashboard">
        <kbd>f</kbd> <span className="nav-wide">Dashboard</span>
      </button>
      <button type="button" onClick={() => store.setUi({ helpOpen: true })} title="keyboard shortcuts (?)" aria-label="keyboard shortcuts">
        ?
      </button>
    </nav>
  );
}
