const FACTORS = [1, 2, 2.5, 5, 10];

/**
 * Round whole-number ticks for a rate axis from 0 to at least `max`: about `count` of them, a step of 1, 2, 2.5 or
 * 5 × 10^k. The chart hands them to recharts with their domain, which spares it working out "nice" ticks in decimal
 * arithmetic at every update.
 */
export function valueTicks(max: number, count = 5): number[] {
  const raw = Math.max(max, 1) / (count - 1);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = Math.max(1, (FACTORS.find((f) => f * power >= raw) ?? 10) * power);
  const ticks: number[] = [];
  for (let i = 0; ticks.length === 0 || (ticks[ticks.length - 1] ?? 0) < max; i++) ticks.push(Number((i * step).toPrecision(12)));
  return ticks.length > 1 ? ticks : [0, step];
}
