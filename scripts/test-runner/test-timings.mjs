// What scripts/test-runner/run-tests.mjs knows of each test file from earlier runs (wall time and CPU time), and the CPU time
// it measures this run.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** This checkout's own last run. */
const CACHE = join(root, 'node_modules', '.cache', 'ndbtop', 'test-timings.json');
/**
 * Committed: what a clean clone (CI) orders by before it has run anything. Refreshed by hand from a run's cache
 * when files come and go (`cp node_modules/.cache/ndbtop/test-timings.json scripts/test-runner/`): a file missing from it is
 * guessed quick and runs last, so test-workflow.test.ts fails until every test file has its line.
 */
const BASELINE = join(root, 'scripts', 'test-runner', 'test-timings.json');

function load(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return {};
  }
}

/** file → { ms, cpuMs } (cpuMs null when not measured): this checkout's last run over the committed baseline. */
export function readTimings() {
  const out = {};
  for (const [file, t] of Object.entries({ ...load(BASELINE), ...load(CACHE) })) {
    out[file] = typeof t === 'number' ? { ms: t, cpuMs: null } : { ms: t.ms, cpuMs: t.cpuMs ?? null };
  }
  return out;
}

/** One file per line, as the baseline is kept. */
const format = (all) => `{\n${Object.entries(all).map(([file, t]) => ` ${JSON.stringify(file)}: ${JSON.stringify(t)}`).join(',\n')}\n}\n`;

export function writeTimings(list) {
  const all = load(CACHE);
  for (const r of list) all[r.file] = { ms: Math.round(r.ms), cpuMs: r.cpuMs };
  try {
    mkdirSync(dirname(CACHE), { recursive: true });
    // Written beside and renamed: a checkout whose node_modules is hard-linked to another's keeps its own file.
    writeFileSync(`${CACHE}.${process.pid}`, format(all));
    renameSync(`${CACHE}.${process.pid}`, CACHE);
  } catch {
    // Only the order of the next run depends on it.
  }
}

function childTicks() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    return Number(fields[13]) + Number(fields[14]);
  } catch {
    return null;
  }
}

/**
 * CPU time (user + system, ms) of the children this process reaped since the last call, Chromium's and the CLI
 * processes a file starts included: Linux counts a reaped child's whole tree in the parent's cutime/cstime
 * (/proc/self/stat fields 16 and 17, in ticks of 10 ms). A file's process is reaped when it exits, so the difference
 * at its exit is its own. Null where there is no /proc (Windows, macOS).
 */
export function reapedCpu() {
  let last = childTicks();
  return () => {
    const now = childTicks();
    const ms = now === null || last === null ? null : (now - last) * 10;
    last = now;
    return ms;
  };
}
