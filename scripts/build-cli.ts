import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const at = (path: string): string => fileURLToPath(new URL(`../${path}`, import.meta.url));
/**
 * `npm run build:cli [outfile]`: the CLI (package.json's `bin`) as one ES module. Loading tsc's ~360 modules and
 * zod's ~95 cost every `ndbtop` command ~1.3 s of CPU before it did anything; one file starts on about a third.
 * sql.js stays a package of its own (it loads its WebAssembly from beside itself), as does Electron (never loaded
 * by the CLI); bundled CommonJS packages (mysql2, ws, commander, prom-client) get the `require` an ES module lacks.
 */
await build({
  entryPoints: [at('electron/cli/ndbtop.ts')],
  outfile: process.argv[2] ?? at('dist/ndbtop.mjs'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['electron', 'sql.js'],
  banner: { js: "import { createRequire as __ndbtopCreateRequire } from 'node:module';\nconst require = __ndbtopCreateRequire(import.meta.url);" },
  logLevel: 'warning',
});
