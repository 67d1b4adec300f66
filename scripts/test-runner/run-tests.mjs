// `node scripts/test-runner/run-tests.mjs [--concurrency N] [--dist] [files or folders…]`: every *.test.ts (or those given), each in a
// process of its own (node:test via tsx, or with --dist from JavaScript: scripts/test-runner/test-build.mjs), several at once. Node 20's test runner cannot glob TypeScript files, and its own
// pool gives no per-file wall time; this one runs the slowest files first (times of the last run, kept in
// node_modules/.cache, else scripts/test-runner/test-timings.json), prints a failing file's whole output, then the slowest files
// with their CPU time and the totals, and ends with node's summary lines (`# tests N`, `# pass N`, `# fail N` …) and
// a last line `N passed, N failed`.
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildRendererTests, builtFile, staleBuild } from './test-build.mjs';
import { failedTests, parseTapSummary, slowestTable } from './test-report.mjs';
import { POSIX_ONLY } from './test-platforms.mjs';
import { collectTests, TEST_ROOTS } from './test-files.mjs';
import { readTimings, reapedCpu, writeTimings } from './test-timings.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The longest one test file may run (wall time) before it is killed and counted as failed. */
const FILE_LIMIT_S = Number(process.env.NDBTOP_TEST_FILE_LIMIT_S) || 600;
const args = process.argv.slice(2);
const at = args.indexOf('--concurrency');
const concurrencyArg = at >= 0 ? Number(args.splice(at, 2)[1]) : Number(process.env.NDBTOP_TEST_CONCURRENCY);
const fromDist = args.includes('--dist');
if (fromDist) args.splice(args.indexOf('--dist'), 1);
// Most files wait on sockets and simulated clusters rather than compute, so twice the cores keeps the CPU busy;
// browser files (a page rendering beside the engine) take at most half of them, the rest run other files.
const slots = Number.isInteger(concurrencyArg) && concurrencyArg > 0 ? concurrencyArg : Math.max(2, availableParallelism() * 2);
// A folder given (`npm run test:e2e`, or one sub-folder of it) stands for every test file under it.
const given = args.length > 0 ? args.map((f) => resolve(f)) : TEST_ROOTS.map((r) => join(root, r)).filter((r) => existsSync(r));
const found = given
  .flatMap((f) => (statSync(f, { throwIfNoEntry: false })?.isDirectory() ? collectTests(f) : [f]))
  .map((f) => relative(root, f).split(sep).join('/'));
const notHere = process.platform === 'win32' ? found.filter((f) => f in POSIX_ONLY) : [];
for (const f of notHere) console.log(`skip   ${f}  (POSIX only: ${POSIX_ONLY[f]})`);
const files = found.filter((f) => !notHere.includes(f));
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}

const isBrowser = (file) => file.startsWith('renderer/e2e/');
const browserSlots = Math.max(1, Math.floor(slots / 2));
const previous = readTimings();
// Files that cost the machine little (under 3 s of CPU last run, however long they wait on sockets, timers or a slow
// peer) may start beyond the slots, up to one more per core: they hardly slow the files computing beside them. CPU
// time, unlike wall time, hardly changes with the machine's load. Not when the concurrency is given.
const extraSlots = Number.isInteger(concurrencyArg) && concurrencyArg > 0 ? 0 : availableParallelism();
const cheap = (file) => !isBrowser(file) && typeof previous[file]?.cpuMs === 'number' && previous[file].cpuMs < 3000;
const guess = (file) => previous[file]?.ms ?? (isBrowser(file) ? 60_000 : 0);
// Longest first, so the last file to finish is a short one. Without times (a file new since the committed
// baseline) the browser files go first: they are the long ones.
const queue = [...new Set(files)].sort((a, b) => guess(b) - guess(a) || a.localeCompare(b));

if (fromDist) await checkBuild(queue);
const rendererDir = await sharedRenderer(queue);
const browser = await sharedChromium(queue);
// Every process a test file starts (the CLI's too) loads test-wasm-tier.mjs first: see there.
const nodeOptions = [process.env.NODE_OPTIONS, `--import=${pathToFileURL(join(root, 'scripts', 'test-runner', 'test-wasm-tier.mjs')).href}`].filter(Boolean).join(' ');
const shared = { NODE_OPTIONS: nodeOptions, ...(rendererDir ? { NDBTOP_TEST_RENDERER_DIR: rendererDir.dir } : {}), ...(browser ? { NDBTOP_TEST_CHROMIUM_WS: browser.endpoint } : {}) };
const started = performance.now();
const reapedCpuMs = reapedCpu();
const results = [];
let running = 0;
let browsers = 0;
await new Promise((resolve) => {
  const next = () => {
    while (queue.length > 0) {
      const i =
        running < slots ? queue.findIndex((f) => !isBrowser(f) || browsers < browserSlots) : running < slots + extraSlots ? queue.findIndex(cheap) : -1;
      if (i < 0) break;
      const [file] = queue.splice(i, 1);
      running++;
      if (isBrowser(file)) browsers++;
      void runFile(file).then((result) => {
        result.cpuMs = reapedCpuMs();
        running--;
        if (isBrowser(file)) browsers--;
        results.push(result);
        report(result);
        writeTimings([result]);
        if (queue.length === 0 && running === 0) resolve();
        else next();
      });
    }
  };
  next();
});
const wallMs = performance.now() - started;
rendererDir?.remove();
// The browser's own tree is reaped with the server; its zygotes' (renderers and GPU process) are read before it closed.
const orphanedMs = browser ? await browser.close() : NaN;
const reapedBrowserMs = browser ? reapedCpuMs() : null;
const browserCpuMs = reapedBrowserMs === null ? null : reapedBrowserMs + (Number.isNaN(orphanedMs) ? 0 : orphanedMs);

const totals = { tests: 0, suites: 0, pass: 0, fail: 0, cancelled: 0, skipped: 0, todo: 0 };
for (const r of results) for (const k of Object.keys(totals)) totals[k] += r.summary[k];
const broken = results.filter((r) => r.summary.broken);
console.log(slowestTable(results, { top: 25, wallMs, slots: extraSlots ? `${slots}+${extraSlots}` : slots, load: loadavg(), browserCpuMs }));
for (const r of broken) console.log(`# ${r.file}: exited with ${r.exit} and no test summary (counted as one failure)`);
for (const r of results) {
  for (const f of failedTests(r.text)) {
    console.log(`# not ok  ${r.file}: ${f.name}`);
    for (const line of f.details) console.log(`#     ${line}`);
  }
}
if (notHere.length > 0) console.log(`# ${notHere.length} POSIX-only files not run on ${process.platform} (listed at the start)`);
for (const [k, v] of Object.entries(totals)) console.log(`# ${k} ${v}`);
console.log(`# duration_ms ${wallMs.toFixed(0)}`);
const failed = totals.fail + totals.cancelled + broken.length;
console.log(`${totals.pass} passed, ${failed} failed`);
process.exit(failed > 0 || results.some((r) => r.exit !== 0) ? 1 : 0);

/** `node`'s arguments that run a TypeScript file of the project: its build with --dist, else through tsx. */
function script(file) {
  return fromDist ? [builtFile(file)] : ['--import', 'tsx', file];
}

/** With --dist: refuses a build older than the checkout, and transpiles the renderer's files when any runs. */
async function checkBuild(list) {
  const stale = staleBuild(root);
  if (stale.length > 0) {
    console.error(`--dist: dist/ is older than ${stale.length} source files (${stale.slice(0, 3).join(', ')}…): run \`tsc -p tsconfig.json\` first (npm test does)`);
    process.exit(1);
  }
  if (list.some((f) => f.startsWith('renderer/'))) await buildRendererTests(root);
}

function runFile(file) {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const env = { ...process.env, ...shared };
    const child = spawn(process.execPath, ['--test-reporter=tap', ...script(file)], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    child.stdout.on('data', (b) => out.push(b));
    child.stderr.on('data', (b) => out.push(b));
    // A file that livelocks must fail, not hold CI until its own limit: node:test sets no limit on a test by default.
    const limit = setTimeout(() => {
      out.push(Buffer.from(`\n# killed after ${FILE_LIMIT_S} s, the limit of one file (NDBTOP_TEST_FILE_LIMIT_S)\n`));
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
    }, FILE_LIMIT_S * 1000);
    child.on('close', (code, signal) => {
      clearTimeout(limit);
      const text = Buffer.concat(out).toString('utf8');
      resolve({ file, ms: performance.now() - t0, exit: code ?? signal, text, summary: parseTapSummary(text) });
    });
  });
}

function report(r) {
  const s = r.summary;
  const ok = r.exit === 0 && s.fail === 0 && s.cancelled === 0 && !s.broken;
  const extra = [s.skipped ? `${s.skipped} skipped` : '', s.todo ? `${s.todo} todo` : ''].filter(Boolean).join(', ');
  const cpu = typeof r.cpuMs === 'number' ? `, ${(r.cpuMs / 1000).toFixed(1)} s CPU` : '';
  console.log(`${ok ? 'ok    ' : 'FAIL  '} ${(r.ms / 1000).toFixed(1).padStart(6)} s  ${r.file}  (${s.tests} tests${extra ? `, ${extra}` : ''}${cpu})`);
  // Passing files are one line; a skip says why, and a failure shows everything the file printed.
  if (!ok) console.log(r.text.replace(/^/gm, '    | '));
  else for (const line of r.text.split('\n').filter((l) => /^\s*(?:not )?ok \d+ .*# (?:SKIP|TODO)/.test(l))) console.log(`    | ${line.trim()}`);
}

/**
 * The browser files serve the built renderer: built once for all of them (npm test hands over the build it just
 * made), not once per file.
 */
async function sharedRenderer(list) {
  if (process.env.NDBTOP_TEST_RENDERER_DIR || !list.some(isBrowser)) return null;
  const dir = mkdtempSync(join(tmpdir(), 'ndbtop-renderer-'));
  const { build } = await import('vite');
  await build({ configFile: join(root, 'renderer', 'vite.config.ts'), logLevel: 'warn', build: { outDir: dir, emptyOutDir: true } });
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * One Chromium for all browser files (scripts/test-runner/chromium-server.ts), each connecting with its own contexts, instead of
 * one launch per file. Without one (no Chromium here) each file finds that out and says so itself.
 */
async function sharedChromium(list) {
  if (process.env.NDBTOP_TEST_CHROMIUM_WS || !list.some(isBrowser)) return null;
  const child = spawn(process.execPath, script('scripts/test-runner/chromium-server.ts'), { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (b) => (out += b));
  const endpoint = await new Promise((resolve) => {
    child.stdout.on('data', () => out.includes('\n') && resolve(out.split('\n')[0].trim()));
    child.on('exit', () => resolve(null));
  });
  if (!endpoint) return null;
  return {
    endpoint,
    /** Resolves with the CPU ms of the browser's processes left to init (null where not measured). */
    close: () => {
      child.stdin.end();
      return new Promise((resolve) => child.on('exit', () => resolve(Number(/orphaned-cpu-ms (\d+)/.exec(out)?.[1] ?? NaN))));
    },
  };
}
