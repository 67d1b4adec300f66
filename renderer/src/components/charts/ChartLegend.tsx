import { formatClock, formatRate } from '../../view-model/format.js';

export interface LegendEntry {
  key: string;
  label: string;
  colour: string;
  dashed: boolean;
  /** The newest value shown, per second; null before the first. */
  current: number | null;
  hidden: boolean;
}

/**
 * The chart's legend as toggles: each series with its current value; a click hides or shows it. With `asOf` (the
 * source is lost) the values are the last seen ones, greyed and dated, never as if they were current.
 */
export function ChartLegend({ entries, onToggle, asOf = null }: { entries: readonly LegendEntry[]; onToggle(key: string): void; asOf?: number | null }) {
  const seen = asOf === null ? '' : `, last seen ${formatClock(asOf)} (not current)`;
  return (
    <div className={`chart-legend${asOf === null ? '' : ' old'}`} role="group" aria-label={`series shown${seen}`} data-old={asOf !== null}>
      {entries.map((e) => (
        <button key={e.key} type="button" data-testid={`legend-${e.key}`} data-current={e.current ?? ''} aria-pressed={!e.hidden} onClick={() => onToggle(e.key)} title={`${e.hidden ? 'show' : 'hide'} ${e.label}${seen}`}>
          <svg width="22" height="10" aria-hidden>
            <line x1="1" y1="5" x2="21" y2="5" stroke={e.colour} strokeWidth="3" strokeDasharray={e.dashed ? '5 3' : undefined} />
          </svg>
          <span className="legend-label">{e.label}</span>
          <strong className="legend-value">{e.current === null ? '–' : `${formatRate(e.current)}/s`}</strong>
        </button>
      ))}
      {asOf !== null && (
        <span className="legend-seen" data-testid="legend-last-seen">
          last seen {formatClock(asOf)}
        </span>
      )}
    </div>
  );
}
