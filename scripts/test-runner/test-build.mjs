// `run-tests.mjs --dist`: the test files run from JavaScript instead of through tsx, which costs each file's process
// ~0.85 s of CPU to start and loads the engine on twice the CPU time (2.7 s against 1.2 s). The Node-side files
// (what tsconfig.json includes) run from the build tsc made of them (npm test runs tsc just before); the renderer's
// test files, which tsconfig.json leaves out (they are type-checked against the DOM by renderer/tsconfig.json), are
// transpiled here by esbuild, as tsx would, beside them in dist/renderer/ so their imports of electron/ land in
// tsc's build. A build older than its source is refused: the tests must test what is checked out.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Where tsc puts the build (tsconfig.json's outDir; rootDir is the project). */
const DIST = 'dist';
/** tsconfig.json's include: the folders tsc builds. */
const TSC_ROOTS = ['native-mgm', 'ndbinfo', 'electron', 'bench', 'scripts'];
const RENDERER_ROOTS = ['renderer/src', 'renderer/e2e'];

function sources(root, dir, out = []) {
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) sources(root, path, out);
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** The JavaScript file `node` runs for a test file (project-relative, `/`-separated). */
export const builtFile = (file) => `${DIST}/${file.replace(/\.tsx?$/, '.js')}`;

/** The CLI's bundle entry (scripts/cli-bundle.ts; its chunks beside it), which the tests start as a user's shell would. */
const CLI_BUNDLE = `${DIST}/ndbtop.mjs`;
/** The folders the CLI bundle is made of (all among TSC_ROOTS). */
const CLI_ROOTS = ['native-mgm', 'ndbinfo', 'electron'];

/**
 * The sources tsc's build or the CLI bundle is missing or older than (project-relative): an edit after the build,
 * or a build that failed before writing. Empty when dist/ is that build of this checkout.
 */
export function staleBuild(root) {
  const mtime = (file) => statSync(join(root, file), { throwIfNoEntry: false })?.mtimeMs ?? -1;
  const bundled = mtime(CLI_BUNDLE);
  return TSC_ROOTS.flatMap((dir) =>
    sources(root, dir).filter((file) => {
      const edited = mtime(file);
      return mtime(builtFile(file)) < edited || (CLI_ROOTS.includes(dir) && bundled < edited);
    }),
  );
}

/** Transpiles the renderer's sources and tests into dist/renderer/ (esbuild, a file for a file, as tsx does). */
export async function buildRendererTests(root) {
  const { build } = await import('esbuild');
  const entryPoints = RENDERER_ROOTS.flatMap((dir) => sources(root, dir));
  await build({
    absWorkingDir: root,
    entryPoints,
    outdir: join(root, DIST, 'renderer'),
    outbase: 'renderer',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    tsconfig: join(root, 'renderer', 'tsconfig.json'),
    logLevel: 'warning',
  });
  return entryPoints.length;
}
