import { useMemo } from 'react';
import { useApp } from '../../store/use-app.js';
import { windowBands, type PlacedBand, type WindowBand } from '../../view-model/alerts/maintenance.js';

const NO_BANDS: readonly WindowBand[] = [];

/**
 * The maintenance windows inside [from, until] of a time axis, as bands: every chart on that axis marks the same
 * windows (issue 23 item 10). Read from `live`, like alerts: pausing does not hide planned work.
 */
export function useWindowBands(from: number | undefined, until: number | undefined): readonly WindowBand[] {
  const windows = useApp((s) => s.live.maintenance);
  return useMemo(() => (from === undefined || until === undefined || windows.length === 0 ? NO_BANDS : windowBands(windows, from, until)), [windows, from, until]);
}

/**
 * Placed bands as shaded stripes over a chart drawn in HTML or on a canvas; the parent is the positioned box of
 * the plot area. The throughput chart draws the same bands in its SVG (recharts' ReferenceArea, `Band` there).
 */
export function BandOverlay({ bands }: { bands: readonly PlacedBand[] }) {
  if (bands.length === 0) return null;
  return (
    <div className="maintenance-bands" aria-hidden>
      {bands.map((b) => (
        <span key={b.id} className="maintenance-band" data-testid="maintenance-band" data-label={b.label} title={b.label} style={{ left: `${b.left * 100}%`, width: `${b.width * 100}%` }} />
      ))}
    </div>
  );
}
