import { connectBridge } from './bridge/bridge.js';
import { nextTask } from './store/next-task.js';
import { createAppStore } from './store/store.js';
import { connectStore } from './store/sync.js';
import { persistUiPrefs } from './store/ui-prefs.js';
import { syncViewWithHash } from './view-hash.js';
import './styles.css';
import './views/views.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');

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

// React and the components, most of the code, are chunks of their own (index.html preloads them): this entry opens the
// link to the engine and starts the store first, so the socket's handshake and the first snapshot overlap their
// compilation, and they are evaluated and first rendered in tasks of their own, not one long task with this. Each
// import starts from a task of its own too (a chunk already fetched would otherwise be evaluated in the task that
// asked for it), React DOM before the components: a module's evaluation is one task, as long as the module is big.
nextTask()
  .then(() => import('react-dom/client'))
  .then(nextTask)
  .then(() => import('./mount.js'))
  .then(async ({ mount }) => {
    await nextTask();
    mount(root, { store, api, selectCluster: sync.selectCluster });
  })
  .catch((err: unknown) => {
    root.textContent = `ndbtop could not load its interface: ${err instanceof Error ? err.message : String(err)}`;
  });
