// `run-tests.mjs --dist`: the test files run bundled instead of through tsx. Through tsx a file's process spent ~0.85 s
// of CPU starting tsx; from tsc's dist/ it still loaded hundreds of modules one by one (the engine, zod, its own
// helpers). esbuild bundles every test file (and each child script a test starts, `*-child.ts`) into one ES module
// beside where tsc puts its build (`dist/…/x.test.mjs`, so code that finds the project upward from itself finds it
// at the same depth), the code several files share in chunks (`dist/chunks/`), most packages included. The bundles
// are made for each run from the checked-out sources, so they cannot be stale and need no tsc; the CLI bundle the
// tests start (npm run build:cli) can be, and is refused then.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Where the bundles go (tsc's outDir: its files are `.js`, the bundles `.mjs`). */
const DIST = 'dist';

function sources(root, dir, out = []) {
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) sources(root, path, out);
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** The bundle `node` runs for a test file or child script (project-relative, `/`-separated). */
export const builtFile = (file) => `${DIST}/${file.replace(/\.tsx?$/, '.mjs')}`;

/** The CLI's one-file bundle (scripts/build-cli.ts), which the tests start as a user's shell would. */
const CLI_BUNDLE = `${DIST}/ndbtop.mjs`;
/** The folders the CLI bundle is made of. */
const CLI_ROOTS = ['native-mgm', 'ndbinfo', 'electron'];

/** The sources the CLI bundle is missing or older than (project-relative, tests aside): empty when it is this checkout's. */
export function staleBuild(root) {
  const bundled = statSync(join(root, CLI_BUNDLE), { throwIfNoEntry: false })?.mtimeMs ?? -1;
  const product = (file) => !file.includes('/test/');
  return CLI_ROOTS.flatMap((dir) => sources(root, dir).filter((file) => product(file) && statSync(join(root, file)).mtimeMs > bundled));
}

/**
 * Packages left in node_modules: Electron (never loaded under Node), sql.js (it loads its WebAssembly from beside
 * itself), mysql2 (loaded at first use with import(): a CommonJS package in a split chunk keeps only its default
 * export, so `createConnection` would be missing), and the tools a few tests load whole (a browser driver that is one
 * bundle already, a bundler, a linter). The rest (zod, ws, prom-client, fast-check…) are bundled, CommonJS ones given
 * the `require` an ES module lacks, as in the CLI's bundle: loading them file by file cost a test more than loading
 * the project's own modules.
 */
const EXTERNAL = ['electron', 'sql.js', 'mysql2', 'playwright-core', 'vite', 'esbuild', 'eslint'];

/** The scripts a test starts as a process of its own (scripts/test-source.ts's nodeArgs): `*-child.ts` under a test folder. */
const CHILD_SCRIPT = /\/test\/(?:.+\/)?[^/]+-child\.ts$/;

/**
 * Bundles `files` (test files), every child script under `roots` and `extra` scripts (the shared Chromium's server)
 * into dist/. Each file's own tsconfig applies (the renderer's has JSX and the DOM).
 */
export async function buildTests(root, { files, roots, extra = [] }) {
  const { build } = await import('esbuild');
  const children = roots.flatMap((dir) => sources(root, dir)).filter((f) => CHILD_SCRIPT.test(f));
  await build({
    absWorkingDir: root,
    entryPoints: [...new Set([...files, ...children, ...extra])],
    outdir: DIST,
    outbase: '.',
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    external: EXTERNAL,
    banner: { js: "import { createRequire as __ndbtopCreateRequire } from 'node:module';\nconst require = __ndbtopCreateRequire(import.meta.url);" },
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
  });
}
