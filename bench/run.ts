/**
 * `npm run bench`: figures measured side by side in one run and printed as ratios, never pass/fail (these machines are
 * shared and noisy), ending with one table of every figure, its goal, the value and whether the goal holds.
 * `npm run bench -- --quick`: the parts that allow it, each shortened (BENCH_QUICK=1), the same table in under
 * 5 minutes; the parts that do not (Chromium, the large recordings) show as not run. Pass part names to run only
 * those; the diagnostics (`sql-flood`: a hostile SQL node's million-row answers, needs `npm run build`; `profile`:
 * long tasks attributed; `threads-profile`; `cold-paint`: the renderer part's cold first paint alone) run only when
 * named. Each part is imported when it runs, after BENCH_QUICK is set, since parts read their settings as they load.
 */
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { failedPart, formatTable, noted, skippedPart, type BenchPart, type Figure } from './table.js';

/** A part that prints its figures and has none for the table yet. */
const printed = (name: string, run: () => Promise<void>) => async (): Promise<Figure[]> => {
  await run();
  return [noted(`${name}: figures printed above`, 'no goal')];
};

const PARTS: BenchPart[] = [
  { name: 'native-mgm', quick: true, run: async () => (await import('./native-mgm.bench.js')).benchNativeMgm() },
  { name: 'cli', quick: true, run: async () => (await import('./cli.bench.js')).benchCli() },
  { name: 'engine', quick: true, run: async () => (await import('./engine.bench.js')).benchEngine() },
  { name: 'storm', quick: true, run: async () => (await import('./storm.bench.js')).benchStorm() },
  { name: 'metrics', quick: true, run: async () => (await import('./metrics.bench.js')).benchMetrics() },
  { name: 'report', quick: false, run: async () => (await import('./recording.bench.js')).benchReport() },
  { name: 'recording', quick: false, run: printed('recording', async () => (await import('./recording.bench.js')).benchRecording()) },
  { name: 'ndbinfo', quick: true, run: async () => (await import('./ndbinfo.bench.js')).benchNdbinfo() },
  { name: 'sql-lag', quick: true, run: async () => (await import('./sql-lag.bench.js')).benchSqlLag() },
  { name: 'renderer', quick: false, run: async () => (await import('./renderer/run.js')).benchRenderer() },
  { name: 'responsiveness', quick: false, run: printed('responsiveness', async () => (await import('./renderer/responsiveness.js')).benchResponsiveness()) },
  { name: 'bare-load', quick: false, run: printed('bare-load', async () => (await import('./renderer/bare-load.js')).benchBareLoad()) },
  { name: 'threads', quick: false, run: printed('threads', async () => (await import('./renderer/threads.js')).benchThreads()) },
  { name: 'sql-flood', quick: false, onRequest: true, run: printed('sql-flood', async () => (await import('./sql-flood.bench.js')).benchSqlFlood()) },
  { name: 'profile', quick: false, onRequest: true, run: printed('profile', async () => (await import('./renderer/profile.js')).profileRenderer()) },
  { name: 'threads-profile', quick: false, onRequest: true, run: printed('threads-profile', async () => (await import('./renderer/threads.js')).profileThreads()) },
  { name: 'cold-paint', quick: false, onRequest: true, run: printed('cold-paint', async () => (await import('./renderer/cold-paint-only.js')).coldPaintOnly()) },
];

const args = process.argv.slice(2);
const quick = args.includes('--quick');
if (quick) process.env.BENCH_QUICK = '1';
const wanted = args.filter((a) => a !== '--quick');
const unknown = wanted.filter((w) => !PARTS.some((p) => p.name === w));
if (unknown.length > 0) throw new Error(`no bench part ${unknown.join(', ')}; parts: ${PARTS.map((p) => p.name).join(', ')}`);

const load = (): string => loadavg().map((l) => l.toFixed(2)).join(' ');
const started = performance.now();
const loadAtStart = load();
const rows: Figure[] = [];
for (const part of PARTS) {
  const named = wanted.includes(part.name);
  if (wanted.length > 0 ? !named : part.onRequest) continue;
  if (quick && !part.quick && !named) {
    rows.push(skippedPart(part.name, '--quick (minutes of Chromium or of generated recordings)'));
    continue;
  }
  try {
    rows.push(...(await part.run()));
  } catch (err) {
    // The bench runs to its end: a part that failed is a row that says so.
    console.error(`bench part ${part.name} failed:`, err);
    rows.push(failedPart(part.name, err));
  }
}
const minutes = (performance.now() - started) / 60_000;
console.log(`\n${formatTable(rows, `== bench${quick ? ' --quick' : ''}: ${rows.length} figures in ${minutes.toFixed(1)} min, load average ${loadAtStart} at the start and ${load()} at the end on ${availableParallelism()} cores`)}`);
console.log('"quiet only": the goal is an absolute time or CPU share, which holds only on a quiet machine; the other figures are ratios measured side by side.');
