import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

// The built renderer is served by Electron (file://) and by serve mode (any path prefix), so assets are relative.
export default defineConfig({
  root,
  base: './',
  plugins: [react()],
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
