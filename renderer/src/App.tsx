import { Suspense, useEffect } from 'react';
import { ActionDialog } from './components/dialogs/ActionDialog.js';
import { AlertStrip } from './components/header/AlertStrip.js';
import { EventLog } from './components/events/EventLog.js';
import { Header } from './components/header/Header.js';
import { Headline } from './components/header/Headline.js';
import { HelpOverlay } from './components/dialogs/HelpOverlay.js';
import { NodeGrid } from './components/nodes/NodeGrid.js';
import { Panels } from './components/maintenance/Panels.js';
import { ViewBar } from './components/nav/ViewBar.js';
import { RunKeys } from './components/header/RunControls.js';
import { SkipToNodes } from './components/header/SkipToNodes.js';
import { useColorScheme } from './hooks/use-color-scheme.js';
import { handleKey, releaseFocusAfterChoice } from './keyboard.js';
import { useApp, useAppContext } from './store/use-app.js';
import { useIncidentSync } from './hooks/use-incident-sync.js';
import { BackupsView, ConfigView, IncidentsView, IoView, prefetchViews, RestartsView, RunsView, SettingsView, ThreadsView, ThroughputView, TlsView } from './views/lazy-views.js';

function Body() {
  const view = useApp((s) => s.ui.view);
  const fullscreen = useApp((s) => s.ui.fullscreen);
  // Dashboard mode shows the chosen view without the controls; the number keys still switch it.
  if (view === 'nodes') {
    return (
      <>
        <Headline />
        <main className="nodes-view" data-view="nodes">
          <NodeGrid />
          {!fullscreen && <EventLog />}
        </main>
      </>
    );
  }
  return (
    <main data-view={view}>
      {fullscreen && view === 'throughput' && <Headline />}
      <Suspense fallback={<p className="muted">loading…</p>}>
        {view === 'restarts' && <RestartsView />}
        {view === 'throughput' && <ThroughputView />}
        {view === 'events' && <EventLog />}
        {view === 'settings' && <SettingsView />}
        {view === 'config' && <ConfigView />}
        {view === 'tls' && <TlsView />}
        {view === 'runs' && <RunsView />}
        {view === 'threads' && <ThreadsView />}
        {view === 'io' && <IoView />}
        {view === 'incidents' && <IncidentsView />}
        {view === 'backups' && <BackupsView />}
      </Suspense>
    </main>
  );
}

export function App() {
  const { store } = useAppContext();
  const setting = useApp((s) => s.ui.theme);
  const scheme = useColorScheme();
  const theme = setting === 'system' ? scheme : setting;
  const fullscreen = useApp((s) => s.ui.fullscreen);
  const paused = useApp((s) => s.ui.paused);
  useIncidentSync();
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => handleKey(store, e);
    window.addEventListener('keydown', onKey);
    window.addEventListener('change', releaseFocusAfterChoice);
    return () => {
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('change', releaseFocusAfterChoice);
    };
  }, [store]);
  useEffect(() => {
    // After the first paint, and out of its way.
    const id = setTimeout(prefetchViews, 1000);
    return () => clearTimeout(id);
  }, []);
  return (
    <div className={`app${fullscreen ? ' dashboard' : ''}${paused ? ' paused' : ''}`}>
      <SkipToNodes />
      <Header />
      <AlertStrip />
      {!fullscreen && <ViewBar />}
      <Body />
      <ActionDialog />
      <HelpOverlay />
      <Panels />
      <RunKeys />
    </div>
  );
}
