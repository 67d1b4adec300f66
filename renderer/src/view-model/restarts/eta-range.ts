import { formatClock, formatDuration } from '../format.js';

/** A span narrower than this reads as one time: the clock's seconds would claim more than the timings know. */
const ONE_TIME_MS = 30_000;

const counted = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;

/**
 * The engine's finish estimate in words: a range while it rests on few timings ("14:02:10–14:09:40, from 1 step"),
 * one time once they agree, and how many timings it rests on either way; "overdue" once the latest end has passed.
 */
export function finishText(range: { from: number; to: number }, basis: number, noun: string, now: number): string {
  const from = `from ${counted(basis, noun)}`;
  if (range.to < now) return `${formatClock(range.to)}, ${formatDuration(now - range.to)} overdue (${from})`;
  if (range.to - range.from < ONE_TIME_MS) return `${formatClock(range.to)} (in ${formatDuration(Math.max(0, range.to - now))}, ${from})`;
  return `${formatClock(range.from)}–${formatClock(range.to)} (${from})`;
}
