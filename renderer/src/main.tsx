import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.js';
import { connectBridge } from './bridge.js';
import { AppContext } from './store/use-app.js';
import { createAppStore } from './store/store.js';
import { connectStore } from './store/sync.js';
import { persistUiPrefs } from './store/ui-prefs.js';
import { syncViewWithHash } from './view-hash.js';
import './styles.css';

const { api, onReconnect, onTransport } = connectBridge();
const store = createAppStore();
const sync = connectStore(store, api);
onReconnect(() => void sync.resync());
onTransport((transport) => store.setUi({ transport }));
syncViewWithHash(store, window);
try {
  persistUiPrefs(store, window.localStorage);
} catch {
  // A page without storage (opaque origin) keeps the density for the session only.
}
// Tests and the benchmark read the store through this, never write it.
Object.assign(window, { __ndbtopStore: store });

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
createRoot(root).render(
  <StrictMode>
    <AppContext.Provider value={{ store, api, selectCluster: sync.selectCluster }}>
      <App />
    </AppContext.Provider>
  </StrictMode>,
);
