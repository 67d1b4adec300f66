import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { importX, createNodeResolver } from 'eslint-plugin-import-x';
import typeCycles from './scripts/type-cycle-rule.mjs';

const ELECTRON_ONLY_IN_MAIN = { name: 'electron', message: 'Only electron/main.ts and electron/preload.ts may import electron.' };
/** Node's built-in modules, bare and with `node:`: none of them exists in the page. */
const NODE_BUILTINS = builtinModules.filter((m) => !m.startsWith('_')).flatMap((m) => [m, `node:${m}`]);

export default tseslint.config(
  { ignores: ['dist/**', 'release/**', 'node_modules/**', 'renderer/dist/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-imports': ['error', { paths: [ELECTRON_ONLY_IN_MAIN] }],
    },
  },
  {
    // No import circles anywhere (type-only imports are the next rule's: import-x leaves them out). Sources import each
    // other as `./x.js` (ES modules), so the resolver maps `.js` to the `.ts` beside it; imported modules are
    // read by a parser that skips the scope analysis import-x never uses (scripts/import-graph-parser.cjs).
    files: ['**/*.{ts,tsx,js,mjs}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/external-module-folders': ['node_modules'],
      'import-x/parsers': { [fileURLToPath(new URL('scripts/import-graph-parser.cjs', import.meta.url))]: ['.ts', '.tsx'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'], extensionAlias: { '.js': ['.ts', '.tsx', '.js'] } })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // ...nor circles that a type-only import closes: harmless at run time, but the same knot for whoever reads or
    // moves the code (scripts/type-cycle-rule.mjs reports just those, so each circle is reported once).
    files: ['**/*.{ts,tsx}'],
    plugins: { ndbtop: typeCycles },
    rules: { 'ndbtop/no-type-cycle': 'error' },
  },
  {
    // The page (renderer/src, browser or Electron renderer) has no Node: no built-ins, none of the Node-side folders.
    // Its tests run under node's test runner and may.
    files: ['renderer/src/**/*.{ts,tsx}'],
    ignores: ['renderer/src/test/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [ELECTRON_ONLY_IN_MAIN, ...NODE_BUILTINS.map((name) => ({ name, message: 'The page runs in a browser: no node built-ins.' }))],
          patterns: [
            {
              group: ['**/electron/engine/**', '**/electron/serve/**', '**/electron/cli/**', '**/native-mgm/**', '**/ndbinfo/**'],
              message: 'The page imports the contract (electron/contract) and its own modules; the Node side is reached only through the bridge.',
            },
          ],
        },
      ],
    },
  },
  {
    // The engine, serve mode and the CLI run in plain Node and never reach into the page. Serve's tests drive the
    // server with the page's own WebSocket client (renderer/src/bridge/ws-client.ts), as a browser would.
    files: ['electron/engine/**/*.ts', 'electron/serve/**/*.ts', 'electron/cli/**/*.ts'],
    ignores: ['**/test/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [ELECTRON_ONLY_IN_MAIN], patterns: [{ group: ['**/renderer/**'], message: 'Plain-Node code never imports the page (renderer/).' }] }],
    },
  },
  {
    // native-mgm runs anywhere Node runs and must never pull in the UI or the Electron layer.
    files: ['native-mgm/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['electron', 'react', 'react-dom', '**/electron/**', '**/renderer/**'], message: 'native-mgm imports only node built-ins and its own modules.' }] }],
    },
  },
  {
    // ndbinfo is the second data source (the SQL nodes): plain Node like native-mgm, never the UI or Electron layer.
    files: ['ndbinfo/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['electron', 'react', 'react-dom', '**/electron/**', '**/renderer/**'], message: 'ndbinfo imports node built-ins, its SQL libraries, native-mgm and its own modules.' }] }],
    },
  },
  {
    // What runs in the page (and the preload) never loads zod nor a module that builds zod schemas: it checks the
    // contract with validators compiled at build time (docs/ARCHITECTURE.md, Renderer). Types are free.
    files: ['renderer/src/**/*.{ts,tsx}', 'electron/desktop/preload-api.ts', 'electron/contract/page-safe/**/*.ts'],
    ignores: ['renderer/src/test/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['zod', '**/contract/index.js', '**/contract/schemas/**'],
              allowTypeImports: true,
              message: 'The page loads no zod schema: import types, or a module of contract/page-safe/.',
            },
          ],
        },
      ],
    },
  },
  {
    // The renderer's hooks: call order and effect dependencies are where React bugs hide.
    files: ['renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    files: ['electron/main.ts', 'electron/preload.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['scripts/**/*.mjs', 'eslint.config.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly' } },
  },
  {
    // import-x loads a parser with require(), and Node 20 cannot require an ES module: this one is CommonJS.
    files: ['scripts/import-graph-parser.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', exports: 'writable' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
