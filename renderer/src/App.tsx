import { useEffect } from 'react';
import { ActionDialog } from './components/ActionDialog.js';
import { AlertStrip } from './components/AlertStrip.js';
import { ClusterActions } from './components/ClusterActions.js';
import { EventLog } from './components/EventLog.js';
import { Header } from './components/Header.js';
import { HelpOverlay } from './components/HelpOverlay.js';
import { NodeGrid } from './components/NodeGrid.js';
import { RunKeys } from './components/RunControls.js';
import { handleKey, toggleFullscreen } from './keyboard.js';
import { useApp, useAppContext } from './store/use-app.js';
import { VIEWS, type ViewName } from './store/ui-slice.js';
import { ConfigView } from './views/ConfigView.js';
import { RestartsView } from './views/RestartsView.js';
import { RunsView } from './views/RunsView.js';
import { SettingsView } from './views/SettingsView.js';
import { ThroughputView } from './views/ThroughputView.js';
import { TlsView } from './views/TlsView.js';

const TITLES: Record<ViewName, string> = { nodes: 'Nodes', restarts: 'Restarts', throughput: 'Throughput', events: 'Events', settings: 'Settings', config: 'Configuration', tls: 'TLS', runs: 'Runs' };

function Nav() {
  const { store } = useAppContext();
  const view = useApp((s) => s.ui.view);
  const error = useApp((s) => s.ui.error);
  return (
    <nav className="app-nav" aria-label="views">
      {VIEWS.map((v, i) => (
        <button key={v} type="button" data-testid={`view-${v}`} aria-current={v === view ? 'page' : undefined} onClick={() => store.setUi({ view: v })}>
          <kbd>{i + 1}</kbd> {TITLES[v]}
        </button>
      ))}
      <ClusterActions />
      <span className="spacer" />
      {error && (
        <span className="tone-bad nav-error" title={error}>
          {error}
        </span>
      )}
      <button type="button" onClick={() => toggleFullscreen(store)} title="full-screen dashboard (f)">
        Dashboard (f)
      </button>
      <button type="button" onClick={() => store.setUi({ helpOpen: true })} title="keyboard shortcuts (?)">
        ?
      </button>
    </nav>
  );
}

function Body() {
  const view = useApp((s) => s.ui.view);
  const fullscreen = useApp((s) => s.ui.fullscreen);
  if (fullscreen || view === 'nodes') {
    return (
      <main className="nodes-view" data-view="nodes">
        <NodeGrid />
        {!fullscreen && <EventLog />}
      </main>
    );
  }
  return (
    <main data-view={view}>
      {view === 'restarts' && <RestartsView />}
      {view === 'throughput' && <ThroughputView />}
      {view === 'events' && <EventLog />}
      {view === 'settings' && <SettingsView />}
      {view === 'config' && <ConfigView />}
      {view === 'tls' && <TlsView />}
      {view === 'runs' && <RunsView />}
    </main>
  );
}

export function App() {
  const { store } = useAppContext();
  const theme = useApp((s) => s.ui.theme);
  const fullscreen = useApp((s) => s.ui.fullscreen);
  const paused = useApp((s) => s.ui.paused);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => handleKey(store, e);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [store]);
  return (
    <div className={`app${fullscreen ? ' dashboard' : ''}${paused ? ' paused' : ''}`}>
      <Header />
      <AlertStrip />
      {!fullscreen && <Nav />}
      <Body />
      <ActionDialog />
      <HelpOverlay />
      <RunKeys />
    </div>
  );
}
