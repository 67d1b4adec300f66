// `npm test`: the build, the static checks and every test, overlapped on two cores. First tsc (it type-checks
// and emits dist/) beside the renderer and preload builds and lint; then the tests, with the renderer's type
// check and Electronegativity beside them (the tests spend much of their time waiting on sockets and simulated
// clusters). The tests use that build: they run from dist/ (run-tests.mjs --dist: no tsx start-up per file, and the
// CLI they start is the build too), and one renderer serves every browser file. The last line is
// `N passed, N failed` (a failed build step or check counts as one failure).
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);
const bin = (pkg, path) => join(dirname(require.resolve(`${pkg}/package.json`)), path);
const tsx = ['--import', 'tsx'];

const TSC = ['build (tsc)', [bin('typescript', 'bin/tsc'), '-p', 'tsconfig.json']];
const BESIDE_TSC = [
  // dist/ is emptied before the build starts; Vite emptying dist/renderer itself would race tsc writing the renderer
  // modules the tests import (the page's WebSocket client, the e2e harness).
  ['build:renderer', [bin('vite', 'bin/vite.js'), 'build', '--config', 'renderer/vite.config.ts', '--logLevel', 'warn', '--emptyOutDir', 'false']],
  ['build:preload', [...tsx, 'scripts/build-preload.ts']],
  // The CLI the tests start is the bundle package.json's `bin` names.
  ['build:cli', [...tsx, 'scripts/build-cli.ts']],
  // Cached by content (a checkout changes every mtime): a file is linted again when it or the configuration changed.
  // A circle an edit makes is still found, from the edited file's side.
  ['lint', [bin('eslint', 'bin/eslint.js'), '--cache', '--cache-strategy', 'content', '--cache-location', 'node_modules/.cache/eslint/', '.']],
];
const BESIDE_TESTS = [
  ['typecheck:renderer', [bin('typescript', 'bin/tsc'), '-p', 'renderer/tsconfig.json']],
  ['electronegativity', [...tsx, 'scripts/electronegativity.mjs']],
];

/** Runs `node args`, its output kept, or streamed line by line to `onLine`. */
function run(name, args, env = process.env, onLine = null) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
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

async function sequence(steps) {
  const done = [];
  for (const [name, args] of steps) {
    const r = await run(name, args);
    print(r);
    done.push(r);
  }
  return done;
}

const t0 = performance.now();
// Nothing of an earlier build survives to be tested: what a source no longer makes is gone.
rmSync(join(root, 'dist'), { recursive: true, force: true });
const [tsc, beside] = await Promise.all([run(...TSC).then((r) => (print(r), r)), sequence(BESIDE_TSC)]);
const built = [tsc, ...beside];
const env = { ...process.env, NDBTOP_TEST_RENDERER_DIR: join(root, 'dist', 'renderer') };
let summary = null;
const [checks, tests] = await Promise.all([
  sequence(BESIDE_TESTS),
  beside.slice(0, 3).every((r) => r.ok)
    ? run('tests', ['scripts/test-runner/run-tests.mjs', '--dist', ...process.argv.slice(2)], env, (line) => {
        if (/^\d+ passed, \d+ failed$/.test(line)) summary = line.split(/\D+/).map(Number);
        console.log(line);
      })
    : Promise.resolve({ name: 'tests', ok: false, ms: 0, output: 'not run: the renderer, preload or CLI build failed' }),
]);

const steps = [...built, ...checks, tests];
console.log(`# npm test: ${((performance.now() - t0) / 1000).toFixed(1)} s wall; ${steps.map((r) => `${r.name} ${r.ok ? 'ok' : 'FAILED'}`).join(', ')}`);
const failedSteps = [...built, ...checks].filter((r) => !r.ok).length + (tests.ok || summary ? 0 : 1);
const [passed, failed] = summary ?? [0, 0];
console.log(`${passed} passed, ${failed + failedSteps} failed`);
process.exit(steps.every((r) => r.ok) ? 0 : 1);
