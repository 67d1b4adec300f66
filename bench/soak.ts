import { soak } from './soak/soak.js';

/**
 * `npm run soak [-- --hours 24 | --minutes 10] [--speed 60]`: 255 nodes through every scenario in a loop with serve
 * and a Chromium page attached; prints samples, then start/end/slope per metric, and exits 1 when engine heap,
 * RSS or page heap grew more than 5 % after warm-up.
 */
const arg = (name: string): number | undefined => {
  const i = process.argv.indexOf(name);
  const v = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(v) && v > 0 ? v : undefined;
};
const durationMs = (arg('--hours') ?? 0) * 3_600_000 + (arg('--minutes') ?? 0) * 60_000 || 10 * 60_000;
const speed = arg('--speed') ?? 60;
const sampleMs = arg('--sample-seconds') !== undefined ? (arg('--sample-seconds') ?? 5) * 1000 : Math.max(3000, Math.min(60_000, durationMs / 200));
const warmUp = (arg('--warm-up-percent') ?? (durationMs <= 15 * 60_000 ? 40 : 10)) / 100;
if (!(globalThis as { gc?: unknown }).gc) console.log('note: run with node --expose-gc (npm run soak does) for heap figures after a full GC');
console.log(`soak: ${(durationMs / 60_000).toFixed(1)} min at speed ${speed}, a sample every ${sampleMs / 1000} s, warm-up ${warmUp * 100} %`);
const r = await soak({ durationMs, speed, sampleMs, warmUp, maxGrowth: 0.05, log: (l) => console.log(l) });
const lagP99 = Math.max(...r.samples.map((s) => s.lagP99Ms));
const pushes = r.samples.reduce((s, x) => s + x.pushesPerS, 0) / Math.max(1, r.samples.length);
console.log(`soak: ${r.samples.length} samples, ${r.cycles} full scenario cycles; worst event-loop lag p99 ${lagP99.toFixed(0)} ms; mean push rate ${pushes.toFixed(1)}/s`);
for (const [k, t] of Object.entries(r.trends)) {
  console.log(`  ${k.padEnd(11)} start ${t.start.toFixed(1)}  end ${t.end.toFixed(1)}  slope ${t.slopePerHour.toFixed(2)}/h  growth ${(t.growth * 100).toFixed(1)} %`);
}
for (const f of r.failures) console.log(`FAIL: ${f}`);
process.exit(r.failures.length > 0 ? 1 : 0);
