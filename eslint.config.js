import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

export default tseslint.config(
  { ignores: ['dist/**', 'release/**', 'node_modules/**', 'renderer/dist/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-imports': ['error', { paths: [{ name: 'electron', message: 'Only electron/main.ts and electron/preload.ts may import electron.' }] }],
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
    files: ['renderer/src/**/*.{ts,tsx}', 'electron/serve/{ws-client,api-client,ws-protocol}.ts', 'electron/desktop/preload-api.ts', 'electron/contract/{page-validators,contract-error,vocabulary,chart-decimation,format-change,alert-kinds,same-value}.ts'],
    ignores: ['renderer/src/test/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['zod', '**/contract/{index,channels,validate,node,events,counters,snapshot,tls,history,runs,actions,settings,config,api}.js'],
              allowTypeImports: true,
              message: 'The page loads no zod schema: import types, or a zod-free contract module (vocabulary.ts …).',
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
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);
