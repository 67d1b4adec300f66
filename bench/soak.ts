import { mkdirSync } from 'node:fs';
import { soak } from './soak/soak.js';

/**
 * `npm run soak [-- --hours 24 | --minutes 10] [--speed 16] [--leak-mb-per-minute 1]`: 255 nodes through every
 * scenario in a loop with serve and a Chromium page attached; prints samples, then start/end/slope per metric
 * (from a line fitted through the samples after warm-up), and a last line `soak: PASS` or `soak: FAIL`, exiting 1
 * when engine heap, RSS or page heap grew more than 5 % after warm-up. `--leak-mb-per-minute` retains that much
 * on purpose, to show the judgement catches it. `--heap-snapshots DIR` writes a heap snapshot of the engine's
 * process and one of the page at the end of each cycle (`cycle-N`, `page-cycle-N`, for `soak/heap-diff.ts`; writing
 * one grows the RSS, so that run's verdict on RSS means nothing).
 */
const arg = (name: string): number | undefined => {
  const i = process.argv.indexOf(name);
  const v = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(v) && v > 0 ? v : undefined;
};
const durationMs = (arg('--hours') ?? 0) * 3_600_000 + (arg('--minutes') ?? 0) * 60_000 || 10 * 60_000;
// Each of the 144 data nodes' 8 statistics instances reports every 5 simulated seconds: at speed 144 that is
// 33,000 reports a second, more than the simulator can send on a shared machine, so how many arrive (and what the
// engine's rate tracker holds) follows the CPU it gets. At 16 it keeps up and the tracker stays at its floor.
const speed = arg('--speed') ?? 16;
const sampleMs = (arg('--sample-seconds') ?? Math.max(3, Math.min(60, durationMs / 200_000))) * 1000;
// A short run spends its first cycle of the scenarios (a third) warming up: rings and the event log fill.
const warmUp = (arg('--warm-up-percent') ?? (durationMs <= 15 * 60_000 ? 34 : 10)) / 100;
const leakMbPerMinute = arg('--leak-mb-per-minute');
const heapSnapshots = process.argv.includes('--heap-snapshots') ? process.argv[process.argv.indexOf('--heap-snapshots') + 1] : undefined;
if (heapSnapshots) mkdirSync(heapSnapshots, { recursive: true });
if (!(globalThis as { gc?: unknown }).gc) console.log('note: run with node --expose-gc (npm run soak does) for heap figures after a full GC');
console.log(
  `soak: ${(durationMs / 60_000).toFixed(1)} min at speed ${speed}, a sample every ${sampleMs / 1000} s, warm-up ${(warmUp * 100).toFixed(0)} %` +
    (leakMbPerMinute ? `, leaking ${leakMbPerMinute} MB/min on purpose` : ''),
);
const r = await soak({ durationMs, speed, sampleMs, warmUp, maxGrowth: 0.05, leakMbPerMinute, heapSnapshots, log: (l) => console.log(l) });
const mean = (f: (s: (typeof r.samples)[number]) => number): number => r.samples.reduce((a, s) => a + f(s), 0) / Math.max(1, r.samples.length);
const lagP99 = Math.max(...r.samples.map((s) => s.lagP99Ms));
console.log(
  `soak: ${r.samples.length} samples, ${r.cycles} full scenario cycles; event-loop lag p99 worst ${lagP99.toFixed(0)} ms, mean ${mean((s) => s.lagP99Ms).toFixed(0)} ms; ` +
    `mean push rate ${mean((s) => s.pushesPerS).toFixed(1)}/s; mean CPU engine ${(mean((s) => s.engineCpu) * 100).toFixed(0)} %, simulator ${(mean((s) => s.simCpu) * 100).toFixed(0)} % of a core`,
);
for (const [k, t] of Object.entries(r.trends)) {
  console.log(
    `  ${k.padEnd(11)} start ${t.start.toFixed(1)}  end ${t.end.toFixed(1)}  slope ${t.slopePerHour.toFixed(2)}/h  growth ${(t.growth * 100).toFixed(1)} %  (±${t.spread.toFixed(1)} around the line, ${t.pairs} pairs)`,
  );
}
for (const n of r.notes) console.log(`note: ${n}`);
for (const f of r.failures) console.log(`FAIL: ${f}`);
console.log(r.failures.length > 0 ? `soak: FAIL (${r.failures.length} finding${r.failures.length > 1 ? 's' : ''} above)` : 'soak: PASS');
process.exit(r.failures.length > 0 ? 1 : 0);
