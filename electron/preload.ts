import { contextBridge, ipcRenderer } from 'electron';
import type { NdbtopApi } from './contract/api.js';
import { createPreloadApi } from './desktop/preload-api.js';

// Sandboxed preload: bundled to CommonJS by `npm run build:preload` (sandboxed preloads cannot be ES modules).
// The page gets exactly the contract's API as `window.ndbtop`, never ipcRenderer.
const api: NdbtopApi = createPreloadApi(ipcRenderer);
contextBridge.exposeInMainWorld('ndbtop', api);
