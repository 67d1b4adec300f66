const STEPS_MS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200].map((s) => s * 1000);

/** Room one "hh:mm:ss" label needs, with a gap, so labels never touch. */
export const TICK_LABEL_PX = 80;

/**
 * Round clock times to label a time axis `widthPx` wide: the smallest step that leaves each label its room, ticks on
 * multiples of it (local time), never two labels closer than `minPx`.
 */
export function timeTicks(from: number, to: number, widthPx: number, minPx = TICK_LABEL_PX): number[] {
  if (!(to > from) || widthPx < minPx) return [];
  const span = to - from;
  const step = STEPS_MS.find((s) => (s / span) * widthPx >= minPx) ?? span;
  // Local midnight-aligned so minutes fall on :00 wherever the time zone is.
  const offset = new Date(from).getTimezoneOffset() * 60_000;
  const ticks: number[] = [];
  for (let t = Math.ceil((from - offset) / step) * step + offset; t <= to; t += step) ticks.push(t);
  return ticks;
}

/**
 * Ticks whose label is centred on them, as a chart's axis draws them: one whose half label would run past the right
 * end of the plot and the `roomPx` beyond it is left out (at 1280 px the last "hh:mm:ss" was cut in half).
 */
export function centredTimeTicks(from: number, to: number, widthPx: number, roomPx: number): number[] {
  return timeTicks(from, to, widthPx).filter((t) => ((to - t) / (to - from)) * widthPx + roomPx >= TICK_LABEL_PX / 2);
}

/** The shortest span a time axis shows, so a chart seconds after a start is not a few points stretched wide. */
export const MIN_AXIS_SPAN_MS = 60_000;

/**
 * Where a chart's time axis starts: the window's start, or, while there are fewer samples than the window holds
 * (ndbtop started a minute ago), the first sample — the operator reads what there is instead of a sliver at the
 * right edge of an empty five minutes or hour.
 */
export function axisStart(firstAt: number | undefined, until: number, windowMs: number): number {
  const windowStart = until - windowMs;
  if (firstAt === undefined || firstAt <= windowStart) return windowStart;
  return Math.max(windowStart, Math.min(firstAt, until - MIN_AXIS_SPAN_MS));
}
