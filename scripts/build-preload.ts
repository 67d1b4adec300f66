import { build, type Plugin } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { CONTRACT_VALIDATORS_ID, contractValidatorsModule } from './contract-validators.js';

const contractValidators: Plugin = {
  name: 'ndbtop-contract-validators',
  setup(b) {
    b.onResolve({ filter: new RegExp(`^${CONTRACT_VALIDATORS_ID}$`) }, () => ({ path: CONTRACT_VALIDATORS_ID, namespace: 'ndbtop' }));
    b.onLoad({ filter: /.*/, namespace: 'ndbtop' }, () => ({ contents: contractValidatorsModule(), loader: 'js' }));
  },
};

const at = (path: string): string => fileURLToPath(new URL(`../${path}`, import.meta.url));
/**
 * `npm run build:preload [outfile]`: sandboxed preloads cannot be ES modules or load packages, so it is one CommonJS
 * bundle, by default where `electron/main.ts` looks for it.
 */
await build({
  entryPoints: [at('electron/preload.ts')],
  outfile: process.argv[2] ?? at('dist/electron/preload.cjs'),
  bundle: true,
  minify: true,
  platform: 'node',
  format: 'cjs',
  target: 'es2022',
  external: ['electron'],
  plugins: [contractValidators],
  logLevel: 'warning',
});
