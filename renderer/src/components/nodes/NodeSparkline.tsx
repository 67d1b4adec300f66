import { useApp } from '../../store/use-app.js';
import { SPARKLINE_METRIC, SPARKLINE_SECONDS } from '../../store/store.js';
import { formatRate } from '../../view-model/format.js';
import { Sparkline } from '../charts/Sparkline.js';

/** `stale`: the node is out of contact, so the value shown is its last one, not a current rate. */
export function NodeSparkline({ nodeId, stale = false }: { nodeId: number; stale?: boolean }) {
  // Selecting the version makes this re-read the ring when a point arrives; the ring itself is mutated in place.
  useApp((s) => s.shown.historyVersion);
  const until = useApp((s) => s.shown.historyUntil);
  const ring = useApp((s) => s.ring);
  const { values } = ring.series(`node.${nodeId}.${SPARKLINE_METRIC}`, until - SPARKLINE_SECONDS * 1000, until);
  const last = [...values].reverse().find(Number.isFinite);
  return (
    <div className="node-spark" title={stale ? `last ${SPARKLINE_METRIC} rate seen before the node went out of contact` : `${SPARKLINE_METRIC} per second, last ${SPARKLINE_SECONDS / 60} min`}>
      <Sparkline values={values} width={120} height={24} label={`node ${nodeId} ${SPARKLINE_METRIC} per second`} />
      <span className="spark-value" data-testid="spark-value">
        {stale && last !== undefined ? 'was ' : ''}
        {last === undefined ? '–' : formatRate(last)} tx/s
      </span>
    </div>
  );
}
