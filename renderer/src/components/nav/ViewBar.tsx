import { toggleFullscreen } from '../../keyboard.js';
import { useApp, useAppContext } from '../../store/use-app.js';
import { VIEWS, viewKey, type ViewName } from '../../store/ui-slice.js';
import { ClusterActions } from '../header/ClusterActions.js';
import { PanelLinks } from '../maintenance/Panels.js';
import './view-bar.css';

export const VIEW_TITLES: Record<ViewName, string> = { nodes: 'Nodes', restarts: 'Restarts', throughput: 'Throughput', events: 'Events', settings: 'Settings', config: 'Configuration', tls: 'TLS', runs: 'Runs', threads: 'Threads', io: 'Redo & transport' };
/** What the bar prints for the two long names, so ten views, the panels' doors and the actions fit one row at 1280 px. */
const SHORT: Partial<Record<ViewName, string>> = { config: 'Config', io: 'Redo' };

/**
 * One row, whatever the width from 1280 px up: a second row would take its height from the grid. The full name of
 * a shortened view is its accessible name and tooltip; the key in front of it switches to it from anywhere.
 */
export function ViewBar() {
  const { store } = useAppContext();
  const view = useApp((s) => s.ui.view);
  const error = useApp((s) => s.ui.error);
  return (
    <nav className="app-nav" aria-label="views" data-testid="view-bar">
      {VIEWS.map((v, i) => {
        const short = SHORT[v];
        return (
          <button
            key={v}
            type="button"
            className="view-tab"
            data-testid={`view-${v}`}
            aria-current={v === view ? 'page' : undefined}
            {...(short ? { 'aria-label': `${viewKey(i)} ${VIEW_TITLES[v]}`, title: VIEW_TITLES[v] } : {})}
            onClick={() => store.setUi({ view: v })}
          >
            <kbd>{viewKey(i)}</kbd> {short ?? VIEW_TITLES[v]}
          </button>
        );
      })}
      <ClusterActions />
      <span className="spacer" />
      {error && (
        <span className="tone-bad nav-error" title={error}>
          {error}
        </span>
      )}
      <PanelLinks />
      <button type="button" onClick={() => toggleFullscreen(store)} title="full-screen dashboard (f)">
        <kbd>f</kbd> Dashboard
      </button>
      <button type="button" onClick={() => store.setUi({ helpOpen: true })} title="keyboard shortcuts (?)" aria-label="keyboard shortcuts">
        ?
      </button>
    </nav>
  );
}
