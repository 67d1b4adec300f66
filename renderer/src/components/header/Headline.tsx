import { useFiguresAsOf } from '../../hooks/use-figures-as-of.js';
import { useApp } from '../../store/use-app.js';
import { formatRate } from '../../view-model/format.js';
import { HEADLINE_METRICS, TREND_WINDOW_MS, trendOf, trendText, type HeadlineMetric } from '../../view-model/nodes/headline.js';

const LABELS: Record<HeadlineMetric, string> = { transactions: 'transactions/s', reads: 'reads/s', writes: 'writes/s', aborts: 'aborts/s' };

function Stat({ metric }: { metric: HeadlineMetric }) {
  const current = useApp((s) => s.shown.rates?.[metric] ?? null);
  // The ring is mutated in place; the version says when to read it again.
  useApp((s) => s.shown.historyVersion);
  const until = useApp((s) => s.shown.historyUntil);
  const ring = useApp((s) => s.ring);
  const trend = trendOf(current, ring.series(`cluster.${metric}`, until - TREND_WINDOW_MS - 1000, until), until);
  // More aborts is trouble; the other rates going up or down is news, not an alarm.
  const tone = metric === 'aborts' && trend.direction === 'up' ? 'tone-bad' : 'muted';
  return (
    <div className="headline-stat" data-testid={`headline-${metric}`} data-value={current ?? ''} data-trend={trend.direction}>
      <span className="headline-value">{current === null ? '–' : formatRate(current)}</span>
      <span className="headline-label">{LABELS[metric]}</span>
      <span className={`headline-trend ${tone}`}>{trendText(trend)}</span>
    </div>
  );
}

/** Cluster throughput in numbers big enough to read across the room, each with its trend over the last minute. */
export function Headline() {
  // Figures the page can no longer refresh are not shown as current ones.
  const old = useFiguresAsOf() !== null;
  return (
    <section className={`headline${old ? ' old' : ''}`} aria-label="cluster throughput" data-testid="headline" data-old={old}>
      {HEADLINE_METRICS.map((m) => (
        <Stat key={m} metric={m} />
      ))}
    </section>
  );
}
