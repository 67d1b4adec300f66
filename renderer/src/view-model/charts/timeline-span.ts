import type { Timeline } from '../../contract.js';

export interface Span {
  from: number;
  to: number;
}

/** Never narrower than this when fitting: activity that just began still shows where it sits in time. */
const MIN_FIT_MS = 30_000;
/** Zooming in stops here: a start phase of a second or two stays a readable block. */
export const MIN_ZOOM_MS = 10_000;
const LEAD = 0.05;

/**
 * What the restart timeline spans: the window asked for, but cut to the data there is. With restart activity
 * (any state other than STARTED) it starts a little before the first of it; otherwise at the first sample. A 5 min
 * window opened right after ndbtop started would else leave the left 85 % empty and the restarts as slivers.
 */
export function fitSpan(t: Timeline, now: number): Span {
  const to = Math.max(t.toMs, now);
  const segments = t.nodes.flatMap((n) => n.segments);
  if (segments.length === 0) return { from: t.fromMs, to };
  const activity = segments.filter((s) => s.status !== 'STARTED');
  const first = Math.max(t.fromMs, Math.min(...(activity.length > 0 ? activity : segments).map((s) => s.from)));
  let from = first - (to - first) * LEAD;
  if (to - from < MIN_FIT_MS) from = to - MIN_FIT_MS;
  return { from: Math.max(t.fromMs, from), to };
}

/**
 * The fitted span zoomed by `zoom` (2 = half as long), keeping its right end (now): in down to MIN_ZOOM_MS, out
 * up to the whole window.
 */
export function zoomSpan(fit: Span, windowFrom: number, zoom: number): Span {
  const length = (fit.to - fit.from) / zoom;
  const clamped = Math.min(fit.to - windowFrom, Math.max(MIN_ZOOM_MS, length));
  return { from: fit.to - Math.max(1, clamped), to: fit.to };
}
