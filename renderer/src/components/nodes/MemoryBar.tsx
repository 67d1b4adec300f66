import { fullInWords, type MemoryUse } from '../../contract.js';
import { formatBytes } from '../../view-model/format.js';

export const MEMORY_WARN = 80;
export const MEMORY_CRIT = 90;

export function memoryTone(percent: number): 'ok' | 'warn' | 'bad' {
  return percent >= MEMORY_CRIT ? 'bad' : percent >= MEMORY_WARN ? 'warn' : 'ok';
}

/** Before the first report, the configured size (DataMemory, IndexMemory) tells what the bar will measure. */
export function MemoryBar({ label, use, configuredBytes }: { label: string; use: MemoryUse | null; configuredBytes?: number | null | undefined }) {
  if (!use) {
    const size = configuredBytes ? `${formatBytes(configuredBytes)} configured, ` : '';
    // Laid out like a bar's row (label, then the rest across bar and figure): bare text in the row's grid fell into
    // its 40 px label column and wrapped one word per line.
    return (
      <div className="mem-row muted">
        <span className="mem-label">{label}</span>
        <span className="mem-none" title={`${label} memory: ${size}no report yet`}>
          {size}no report yet
        </span>
      </div>
    );
  }
  const pct = Math.min(100, use.percent);
  const tone = memoryTone(pct);
  const used = formatBytes(use.usedPages * use.pageSizeBytes);
  const total = formatBytes(use.totalPages * use.pageSizeBytes);
  // The engine's trend over the last memory rounds: "full in ~7 min at this rate" or "not filling".
  const trend = fullInWords(use.trend);
  return (
    // Figures the last memory report did not repeat are greyed: the node's last known use, not a current reading.
    <div className={`mem-row${use.stale ? ' stale' : ''}`} data-stale={use.stale === true} data-trend={trend ?? undefined} title={`${label} memory: ${used} of ${total} (${use.usedPages}/${use.totalPages} pages)${use.stale ? ', not in the last memory report' : trend ? `, ${trend}` : ''}`}>
      <span className="mem-label">{label}</span>
      <span className="mem-bar" role="meter" aria-label={`${label} memory`} aria-valuenow={Math.round(pct)} aria-valuemin={0} aria-valuemax={100}>
        <span className={`mem-fill tone-${tone}`} style={{ width: `${pct}%` }} />
        <span className="mem-mark" style={{ left: `${MEMORY_WARN}%` }} />
        <span className="mem-mark crit" style={{ left: `${MEMORY_CRIT}%` }} />
      </span>
      <span className={`mem-pct tone-${tone}`}>{pct.toFixed(0)} %</span>
    </div>
  );
}
