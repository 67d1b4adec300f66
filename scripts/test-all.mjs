// `npm test`: the build, the static checks and every test, overlapped on two cores. The tests need only the renderer
// (served to the browser files) and the CLI bundle (the CLI tests start it): those two are built first, side by side;
// the test files themselves are bundled by the runner (run-tests.mjs --dist, scripts/test-build.mjs) from the
// sources, so they do not wait for tsc. tsc (which type-checks and emits dist/), the preload bundle, ESLint, the
// renderer's type check and Electronegativity then run beside the tests in two lanes, at a lower priority: the
// tests wait on sockets and simulated clusters, and the checks fill that time instead of taking the tests' CPU. The
// last line is `N passed, N failed` (a failed build step or check counts as one failure).
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { createRequire } from 'node:module';
import { setPriority } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const bin = (pkg, path) => join(dirname(require.resolve(`${pkg}/package.json`)), path);
const tsx = ['--import', 'tsx'];

/** What the tests use, built before them. */
const FOR_TESTS = [
  // dist/ was just emptied (Vite would only warn that its outDir is outside the renderer's root).
  ['build:renderer', [bin('vite', 'bin/vite.js'), 'build', '--config', 'renderer/vite.config.ts', '--logLevel', 'warn', '--emptyOutDir', 'false']],
  // The CLI the tests start is the one-file bundle package.json's `bin` names.
  ['build:cli', [...tsx, 'scripts/build-cli.ts']],
];
/**
 * The rest of `npm run build` and the static checks, beside the tests in two lanes of about a minute of CPU each:
 * what the tests leave of the CPU they take meanwhile, and whatever is left when the tests end runs on both cores.
 */
const BESIDE_TESTS = [
  [
    ['build (tsc)', [bin('typescript', 'bin/tsc'), '-p', 'tsconfig.json']],
    ['typecheck:renderer', [bin('typescript', 'bin/tsc'), '-p', 'renderer/tsconfig.json']],
  ],
  [
    // Cached by content (a checkout changes every mtime): a file is linted again when it or the configuration changed.
    // A circle an edit makes is still found, from the edited file's side.
    ['lint', [bin('eslint', 'bin/eslint.js'), '--cache', '--cache-strategy', 'content', '--cache-location', 'node_modules/.cache/eslint/', '.']],
    ['build:preload', [...tsx, 'scripts/build-preload.ts']],
    ['electronegativity', [...tsx, 'scripts/electronegativity.mjs']],
  ],
];
/** The priority of the checks beside the tests (a nice value; Windows maps it to a priority class). */
const BESIDE_PRIORITY = 10;

/** Runs `node args`, its output kept, or streamed line by line to `onLine`. */
function run(name, args, { env = process.env, onLine = null, priority = 0 } = {}) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    // Its own children (tsx's, ESLint's workers) start from it and inherit it.
    if (priority && child.pid) setPriority(child.pid, priority);
    const out = [];
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on('line', (line) => (onLine ? onLine(line) : out.push(line)));
    }
    child.on('close', (code) => resolve({ name, ok: code === 0, ms: performance.now() - started, output: out.join('\n') }));
  });
}

function print(r) {
  console.log(`${r.ok ? 'ok    ' : 'FAIL  '} ${(r.ms / 1000).toFixed(1).padStart(6)} s  ${r.name}`);
  if (!r.ok || r.output.trim()) console.log(r.output.replace(/^/gm, '    | '));
}

async function sequence(steps, options) {
  const done = [];
  for (const [name, args] of steps) {
    const r = await run(name, args, options);
    print(r);
    done.push(r);
  }
  return done;
}

const t0 = performance.now();
// Nothing of an earlier build survives to be tested: what a source no longer makes is gone.
rmSync(join(root, 'dist'), { recursive: true, force: true });
const built = await Promise.all(FOR_TESTS.map(([name, args]) => run(name, args).then((r) => (print(r), r))));
const env = { ...process.env, NDBTOP_TEST_RENDERER_DIR: join(root, 'dist', 'renderer') };
let summary = null;
const [checks, tests] = await Promise.all([
  Promise.all(BESIDE_TESTS.map((lane) => sequence(lane, { priority: BESIDE_PRIORITY }))).then((lanes) => lanes.flat()),
  built.every((r) => r.ok)
    ? run('tests', ['scripts/run-tests.mjs', '--dist', ...process.argv.slice(2)], {
        env,
        onLine: (line) => {
          if (/^\d+ passed, \d+ failed$/.test(line)) summary = line.split(/\D+/).map(Number);
          console.log(line);
        },
      })
    : Promise.resolve({ name: 'tests', ok: false, ms: 0, output: `not run: ${built.filter((r) => !r.ok).map((r) => r.name).join(' and ')} failed` }),
]);

const steps = [...built, ...checks, tests];
console.log(`# npm test: ${((performance.now() - t0) / 1000).toFixed(1)} s wall; ${steps.map((r) => `${r.name} ${r.ok ? 'ok' : 'FAILED'}`).join(', ')}`);
const failedSteps = [...built, ...checks].filter((r) => !r.ok).length + (tests.ok || summary ? 0 : 1);
const [passed, failed] = summary ?? [0, 0];
console.log(`${passed} passed, ${failed + failedSteps} failed`);
process.exit(steps.every((r) => r.ok) ? 0 : 1);
