import { useFiguresAsOf } from '../../hooks/use-figures-as-of.js';
import { useApp } from '../../store/use-app.js';
import { formatClock, formatRate } from '../../view-model/format.js';
import { HEADLINE_METRICS, TREND_WINDOW_MS, lastSample, trendOf, trendText, type HeadlineMetric } from '../../view-model/nodes/headline.js';

const LABELS: Record<HeadlineMetric, string> = { transactions: 'transactions/s', reads: 'reads/s', writes: 'writes/s', aborts: 'aborts/s' };

function Stat({ metric, asOf }: { metric: HeadlineMetric; asOf: number | null }) {
  const rate = useApp((s) => s.shown.rates?.[metric] ?? null);
  // The ring is mutated in place; the version says when to read it again.
  useApp((s) => s.shown.historyVersion);
  const until = useApp((s) => s.shown.historyUntil);
  const ring = useApp((s) => s.ring);
  const samples = ring.series(`cluster.${metric}`, until - TREND_WINDOW_MS - 1000, asOf ?? until);
  // A lost source leaves no rates: the figure stays, as the last one seen, dated instead of trended.
  const current = rate ?? (asOf === null ? null : lastSample(samples));
  const trend = trendOf(current, samples, until);
  // More aborts is trouble; the other rates going up or down is news, not an alarm.
  const tone = metric === 'aborts' && trend.direction === 'up' ? 'tone-bad' : 'muted';
  const seen = asOf === null ? null : `last seen ${formatClock(asOf)}`;
  return (
    <div className="headline-stat" data-testid={`headline-${metric}`} data-value={current ?? ''} data-trend={trend.direction} title={seen === null ? undefined : `${seen}: not current`}>
      <span className="headline-value">{current === null ? '–' : formatRate(current)}</span>
      <span className="headline-label">{LABELS[metric]}</span>
      <span className={`headline-trend ${seen === null ? tone : 'headline-seen'}`} data-testid={seen === null ? undefined : 'headline-last-seen'}>
        {seen ?? trendText(trend)}
      </span>
    </div>
  );
}

/** Cluster throughput in numbers big enough to read across the room, each with its trend over the last minute. */
export function Headline() {
  // Figures the page can no longer refresh are not shown as current ones.
  const asOf = useFiguresAsOf();
  const old = asOf !== null;
  return (
    <section className={`headline${old ? ' old' : ''}`} aria-label="cluster throughput" data-testid="headline" data-old={old}>
      {HEADLINE_METRICS.map((m) => (
        <Stat key={m} metric={m} asOf={asOf} />
      ))}
    </section>
  );
}
