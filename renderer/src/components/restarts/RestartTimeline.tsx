import { useMemo, useRef, useState } from 'react';
import type { NodeStatus, Timeline } from '../../contract.js';
import { useSize } from '../../hooks/use-size.js';
import { formatClock, formatDuration } from '../../view-model/format.js';
import { TICK_LABEL_PX, timeTicks } from '../../view-model/charts/time-ticks.js';
import { STATUS_TONE } from '../../view-model/nodes/status.js';
import { fitSpan, zoomSpan } from '../../view-model/charts/timeline-span.js';
import { linearPlace, placeBands } from '../../view-model/alerts/maintenance.js';
import { BandOverlay, useWindowBands } from '../charts/MaintenanceBands.js';

type Segment = Timeline['nodes'][number]['segments'][number];

function describe(seg: Segment, now: number): string {
  const end = seg.to ?? now;
  const phase = seg.status === 'STARTING' || seg.status === 'SHUTTING_DOWN' ? ` phase ${seg.startPhase}` : '';
  return `${seg.status}${phase}: ${formatDuration(end - seg.from)} (${formatClock(seg.from)}–${seg.to === null ? 'now' : formatClock(seg.to)})`;
}

/** Status words by colour, in the order a restart goes through them. */
const LEGEND: ReadonlyArray<[NodeStatus, string]> = [
  ['STARTED', 'started'],
  ['SHUTTING_DOWN', 'stopping'],
  ['NO_CONTACT', 'down / not started'],
  ['STARTING', 'starting (pN = phase)'],
  ['UNKNOWN', 'unknown'],
];

export function TimelineLegend() {
  return (
    <div className="timeline-legend" data-testid="timeline-legend">
      {LEGEND.map(([status, label]) => (
        <span key={status} className="legend-item">
          <span className={`legend-swatch tone-bg-${STATUS_TONE[status]}`} aria-hidden /> {label}
        </span>
      ))}
      {/* A track is bare before ndbtop watched the node: not a state of the node, and not to be read as "unknown". */}
      <span className="legend-item">
        <span className="legend-swatch legend-swatch-none" data-testid="legend-no-record" aria-hidden /> no record yet
      </span>
    </div>
  );
}

/**
 * One row per node, its states as coloured segments, each labelled and timed on hover. The axis spans the data
 * there is (from a little before the first restart activity), zoomable in and out around now.
 */
export function RestartTimeline({ timeline, rows: labels, now }: { timeline: Timeline; rows: ReadonlyArray<{ nodeId: number; label: string }>; now: number }) {
  const [zoom, setZoom] = useState(1);
  const { from, to } = zoomSpan(fitSpan(timeline, now), timeline.fromMs, zoom);
  const span = Math.max(1, to - from);
  const rows = new Map(timeline.nodes.map((n) => [n.nodeId, n.segments]));
  const axisRef = useRef<HTMLDivElement>(null);
  const { width } = useSize(axisRef);
  const windows = useWindowBands(from, to);
  const bands = useMemo(() => placeBands(windows, linearPlace(from, to)), [windows, from, to]);
  return (
    <div className="timeline" data-testid="restart-timeline" data-from={from} data-to={to}>
      <div className="timeline-zoom">
        <button type="button" aria-label="zoom out" data-testid="timeline-zoom-out" onClick={() => setZoom((z) => z / 2)}>
          −
        </button>
        <button type="button" aria-label="zoom in" data-testid="timeline-zoom-in" onClick={() => setZoom((z) => z * 2)}>
          +
        </button>
        <button type="button" aria-label="fit to the data" data-testid="timeline-zoom-fit" onClick={() => setZoom(1)}>
          fit
        </button>
        <span className="muted">{formatDuration(span)}</span>
      </div>
      <div className="timeline-axis" ref={axisRef}>
        {/* A label starts at its tick, so one too close to the right edge would be cut. */}
        {timeTicks(from, to, width)
          .filter((t) => ((to - t) / span) * width >= TICK_LABEL_PX)
          .map((t) => (
            <span key={t} className="timeline-tick" style={{ left: `${((t - from) / span) * 100}%` }}>
              {formatClock(t)}
            </span>
          ))}
      </div>
      <div className="timeline-rows">
        {labels.map(({ nodeId: id, label }) => (
          <div key={id} className="timeline-row" data-testid={`timeline-${id}`}>
            <span className="timeline-label">{label}</span>
            <div className="timeline-track">
              {(rows.get(id) ?? []).map((seg) => {
                const left = ((Math.max(seg.from, from) - from) / span) * 100;
                const width = (((seg.to ?? to) - Math.max(seg.from, from)) / span) * 100;
                if (width <= 0) return null;
                const text = seg.status === 'STARTING' ? `p${seg.startPhase}` : seg.status === 'STARTED' ? '' : seg.status.replace(/_/g, ' ');
                return (
                  <span
                    key={`${seg.from}-${seg.status}-${seg.startPhase}`}
                    className={`segment tone-bg-${STATUS_TONE[seg.status]}`}
                    style={{ left: `${left}%`, width: `${width}%` }}
                    title={describe(seg, now)}
                    data-status={seg.status}
                    data-phase={seg.startPhase}
                  >
                    {width > 4 ? text : ''}
                  </span>
                );
              })}
            </div>
          </div>
        ))}
        <BandOverlay bands={bands} />
      </div>
    </div>
  );
}
