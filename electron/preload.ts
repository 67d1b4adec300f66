import { contextBridge, ipcRenderer } from 'electron';
import type { NdbtopApi } from './contract/page-safe/api.js';
import * as compiled from 'virtual:ndbtop-contract-validators';
import { compiledPageValidators } from './contract/page-safe/page-validators.js';
import { createPreloadApi } from './desktop/preload-api.js';

// Sandboxed preload: bundled to CommonJS by `npm run build:preload` (sandboxed preloads cannot be ES modules).
// The page gets exactly the contract's API as `window.ndbtop`, never ipcRenderer.
const api: NdbtopApi = createPreloadApi(ipcRenderer, compiledPageValidators(compiled));
contextBridge.exposeInMainWorld('ndbtop', api);
