import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { CONTRACT_VALIDATORS_ID, contractValidatorsModule } from '../scripts/contract-validators.js';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * main.tsx imports React DOM and the components (src/mount.tsx) dynamically, to evaluate each in a task of its own:
 * the page names those chunks and their imports as modulepreloads, so they are fetched with the entry, not after it
 * ran. (The other views are mount's dynamic imports, fetched later.)
 */
function preloadMount(): Plugin {
  return {
    name: 'ndbtop-preload-mount',
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        const chunks = Object.values(bundle ?? {});
        const entry = chunks.find((c) => c.type === 'chunk' && c.isEntry);
        if (!entry || entry.type !== 'chunk') return [];
        const first = chunks.filter((c) => c.type === 'chunk' && entry.dynamicImports.includes(c.fileName));
        return [...new Set(first.flatMap((c) => (c.type === 'chunk' ? [c.fileName, ...c.imports] : [])))]
          .filter((file) => !html.includes(file))
          .map((file) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `./${file}` }, injectTo: 'head' as const }));
      },
    },
  };
}

/** The page's contract validators, compiled from the contract's schemas when the renderer is built. */
function contractValidators(): Plugin {
  const resolved = `\0${CONTRACT_VALIDATORS_ID}`;
  return {
    name: 'ndbtop-contract-validators',
    resolveId: (id) => (id === CONTRACT_VALIDATORS_ID ? resolved : undefined),
    load: (id) => (id === resolved ? contractValidatorsModule() : undefined),
  };
}

// The built renderer is served by Electron (file://) and by serve mode (any path prefix), so assets are relative.
export default defineConfig({
  root,
  base: './',
  plugins: [react(), preloadMount(), contractValidators()],
  build: {
    outDir: fileURLToPath(new URL('../dist/renderer', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // No source maps in what ships: they would hand the full source to anyone who can load the dashboard.
    sourcemap: false,
    // A local app: the bundle comes from disk or the LAN once, not over a slow link per page.
    chunkSizeWarningLimit: 1500,
  },
});
