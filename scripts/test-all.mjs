// `npm test`: the build, the static checks and every test, overlapped. The renderer and the preload are built
// first (the browser tests serve that build, so it is made once); then the tests run while the type checks (tsc
// also emits dist/), lint and Electronegativity take one core beside them, since the tests spend much of their time
// waiting on sockets and simulated clusters. The last line is `N passed, N failed` (a failed check counts as one).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const bin = (pkg, path) => join(dirname(require.resolve(`${pkg}/package.json`)), path);
const tsx = ['--import', 'tsx'];

const BUILD = [
  ['build:renderer', [bin('vite', 'bin/vite.js'), 'build', '--config', 'renderer/vite.config.ts', '--logLevel', 'warn']],
  ['build:preload', [...tsx, 'scripts/build-preload.ts']],
];
const CHECKS = [
  ['build (tsc)', [bin('typescript', 'bin/tsc'), '-p', 'tsconfig.json']],
  ['typecheck:renderer', [bin('typescript', 'bin/tsc'), '-p', 'renderer/tsconfig.json']],
  ['lint', [bin('eslint', 'bin/eslint.js'), '.']],
  ['electronegativity', [...tsx, 'scripts/electronegativity.mjs']],
];

/** Runs `node args`, its output kept, or streamed line by line to `onLine`. */
function run(name, args, env = process.env, onLine = null) {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on('line', (line) => (onLine ? onLine(line) : out.push(line)));
    }
    child.on('close', (code) => resolve({ name, ok: code === 0, ms: performance.now() - t0, output: out.join('\n') }));
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
const built = await Promise.all(BUILD.map(([name, args]) => run(name, args)));
built.forEach(print);
let summary = null;
const env = { ...process.env, NDBTOP_TEST_RENDERER_DIR: join(root, 'dist', 'renderer') };
const [checks, tests] = await Promise.all([
  sequence(CHECKS),
  built.every((r) => r.ok)
    ? run('tests', ['scripts/run-tests.mjs'], env, (line) => {
        if (/^\d+ passed, \d+ failed$/.test(line)) summary = line.split(/\D+/).map(Number);
        console.log(line);
      })
    : Promise.resolve({ name: 'tests', ok: false, ms: 0, output: 'not run: the build failed' }),
]);

const steps = [...built, ...checks, tests];
console.log(`# npm test: ${((performance.now() - t0) / 1000).toFixed(1)} s wall; ${steps.map((r) => `${r.name} ${r.ok ? 'ok' : 'FAILED'}`).join(', ')}`);
const failedSteps = [...built, ...checks].filter((r) => !r.ok).length + (tests.ok || summary ? 0 : 1);
const [passed, failed] = summary ?? [0, 0];
console.log(`${passed} passed, ${failed + failedSteps} failed`);
process.exit(steps.every((r) => r.ok) ? 0 : 1);
