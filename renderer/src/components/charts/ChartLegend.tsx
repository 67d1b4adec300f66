import { formatRate } from '../../view-model/format.js';

export interface LegendEntry {
  key: string;
  label: string;
  colour: string;
  dashed: boolean;
  /** The newest value shown, per second; null before the first. */
  current: number | null;
  hidden: boolean;
}

/** The chart's legend as toggles: each series with its current value; a click hides or shows it. */
export function ChartLegend({ entries, onToggle }: { entries: readonly LegendEntry[]; onToggle(key: string): void }) {
  return (
    <div className="chart-legend" role="group" aria-label="series shown">
      {entries.map((e) => (
        <button key={e.key} type="button" data-testid={`legend-${e.key}`} data-current={e.current ?? ''} aria-pressed={!e.hidden} onClick={() => onToggle(e.key)} title={e.hidden ? `show ${e.label}` : `hide ${e.label}`}>
          <svg width="22" height="10" aria-hidden>
            <line x1="1" y1="5" x2="21" y2="5" stroke={e.colour} strokeWidth="3" strokeDasharray={e.dashed ? '5 3' : undefined} />
          </svg>
          <span className="legend-label">{e.label}</span>
          <strong className="legend-value">{e.current === null ? '–' : `${formatRate(e.current)}/s`}</strong>
        </button>
      ))}
    </div>
  );
}
