/**
 * One reading job on a large recording in its own process, for `recording.bench.ts`: `report FILE` (every run's
 * summary) or `seek FILE T` (a replay from recorded time T for ten recorded seconds). Prints one JSON line with
 * the wall and CPU time and the process's peak RSS (getrusage), so the figure is the reader's own.
 */
import { performance } from 'node:perf_hooks';
import { createReplayEngine } from '../electron/engine/recording/replay.js';
import { reportsOfRecording } from '../electron/engine/features/runs/recording-runs.js';

const [job, file = '', at] = process.argv.slice(2);
const t0 = performance.now();
let detail: unknown;
if (job === 'report' || job === 'replay-report') {
  // `replay-report`: every run played, as for a file without digests.
  const { reports, unreadable } = await reportsOfRecording(file, 'bench', createReplayEngine, undefined, undefined, job === 'report');
  detail = { runs: reports.length, samples: reports.map((r) => r.summary.transactions?.samples ?? 0), unreadable };
} else {
  const from = Number(at);
  const engine = await createReplayEngine({ file, speed: Infinity, from, until: from + 10_000 });
  detail = await engine.finished;
  await engine.close();
}
const usage = process.resourceUsage();
// CPU time beside wall time: the machine is shared, so the wall time says as much about the neighbours.
const cpuMs = (usage.userCPUTime + usage.systemCPUTime) / 1000;
process.stdout.write(`${JSON.stringify({ wallMs: performance.now() - t0, cpuMs, peakRssKb: usage.maxRSS, detail: JSON.stringify(detail).slice(0, 200) })}\n`);
