import { memo, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useDocumentTheme } from '../../hooks/use-document-theme.js';
import { formatClock, formatRate } from '../../view-model/format.js';
import { sampleAt, sparkGeometry, type SparkGeometry } from '../../view-model/charts/spark-geometry.js';
import { scheduleDraw } from './draw-queue.js';
import { BandOverlay } from './MaintenanceBands.js';
import type { PlacedBand } from '../../view-model/alerts/maintenance.js';

export interface SmallMultipleProps {
  nodeId: number;
  /** Transactions per second, oldest first; NaN where the node gave none. */
  values: readonly number[];
  /** Sample times of `values` (the engine's decimated time axis). */
  at: readonly number[];
  /** Maintenance windows over the samples, the same for every node. */
  bands: readonly PlacedBand[];
  stale: boolean;
  width: number;
  height: number;
  /** The window shown, for the accessible summary ("over the last 1h"). */
  windowLabel: string;
}

function draw(canvas: HTMLCanvasElement, geometry: SparkGeometry | null, width: number, height: number, hover: number | null): void {
  const ratio = window.devicePixelRatio || 1;
  if (canvas.width !== Math.round(width * ratio)) canvas.width = Math.round(width * ratio);
  if (canvas.height !== Math.round(height * ratio)) canvas.height = Math.round(height * ratio);
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, width, height);
  if (!geometry) return;
  const style = getComputedStyle(canvas);
  ctx.strokeStyle = style.getPropertyValue('--spark').trim() || '#4fc3f7';
  ctx.lineWidth = 1.5;
  ctx.lineJoin = 'round';
  ctx.beginPath();
  for (const run of geometry.runs) {
    ctx.moveTo(run[0] ?? 0, run[1] ?? 0);
    for (let i = 2; i < run.length; i += 2) ctx.lineTo(run[i] ?? 0, run[i + 1] ?? 0);
  }
  ctx.stroke();
  if (hover === null) return;
  // The sample under the pointer: a hairline and a dot, its value in the caption.
  const x = hover * geometry.step;
  ctx.strokeStyle = style.getPropertyValue('--fg-muted').trim() || '#9aa4b1';
  ctx.lineWidth = 1;
  ctx.beginPath();
  ctx.moveTo(x, 0);
  ctx.lineTo(x, height);
  ctx.stroke();
}

function summary(values: readonly number[]): { last: number | undefined; min: number; max: number } {
  let last: number | undefined;
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    if (!Number.isFinite(v)) continue;
    last = v;
    min = Math.min(min, v);
    max = Math.max(max, v);
  }
  return { last, min, max };
}

/**
 * One data node's transactions per second on a canvas (144 SVG paths re-rendered with each answer made the
 * Throughput view's long tasks): the caption carries the newest value, the canvas an accessible summary and, on
 * hover, the sample under the pointer with its time. Memoised: it redraws only when its own series changes, and
 * through the draw queue, so 144 of them redraw over a few frames.
 */
export const SmallMultiple = memo(function SmallMultiple({ nodeId, values, at, bands, stale, width, height, windowLabel }: SmallMultipleProps) {
  const ref = useRef<HTMLCanvasElement>(null);
  const [hover, setHover] = useState<number | null>(null);
  const theme = useDocumentTheme();
  const geometry = useMemo(() => sparkGeometry(values, width, height), [values, width, height]);
  const { last, min, max } = useMemo(() => summary(values), [values]);
  useLayoutEffect(() => {
    const canvas = ref.current;
    return canvas ? scheduleDraw(canvas, () => draw(canvas, geometry, width, height, hover)) : undefined;
  }, [geometry, width, height, hover, theme]);
  const hovered = hover === null ? undefined : values[hover];
  const label =
    last === undefined
      ? `node ${nodeId} transactions per second: no data yet`
      : `node ${nodeId} transactions per second over the last ${windowLabel}: now ${formatRate(last)}, lowest ${formatRate(min)}, highest ${formatRate(max)}`;
  return (
    <figure className={`small-multiple${stale ? ' stale' : ''}`} data-stale={stale} data-testid={`small-multiple-${nodeId}`}>
      <figcaption>
        {hover !== null && hovered !== undefined ? (
          <>
            node {nodeId} at {formatClock(at[hover] ?? 0)} <strong>{Number.isFinite(hovered) ? formatRate(hovered) : '–'}</strong> tx/s
          </>
        ) : (
          <>
            node {nodeId} {stale ? 'out of contact, was ' : ''}
            <strong>{last === undefined ? '–' : formatRate(last)}</strong> tx/s
          </>
        )}
      </figcaption>
      <div className="spark-box">
        <canvas
          ref={ref}
          className="sparkline"
          style={{ width, height }}
          role="img"
          aria-label={label}
          data-points={values.length}
          data-last={last ?? ''}
          onPointerMove={(e) => setHover(geometry ? sampleAt(geometry, values.length, e.clientX - e.currentTarget.getBoundingClientRect().left) : null)}
          onPointerLeave={() => setHover(null)}
        />
        <BandOverlay bands={bands} />
      </div>
    </figure>
  );
});
