import { useApp, useAppContext } from '../../store/use-app.js';

/** An option is plain text: the worst open alert in words, so a cluster in trouble stands out in the list. */
const ALERT_MARK = { critical: '‼ CRITICAL alert', warning: '⚠ warning' } as const;

/** Which watched cluster this window shows; only there when the engine watches more than one. */
export function ClusterPicker() {
  const { selectCluster, store } = useAppContext();
  const clusters = useApp((s) => s.clusters);
  const current = useApp((s) => s.live.clusterId);
  if (clusters.length < 2) return null;
  return (
    <select
      className="cluster-picker"
      data-testid="cluster-select"
      aria-label="cluster shown"
      value={current ?? ''}
      onChange={(e) => void selectCluster(e.target.value).catch((err: unknown) => store.setUi({ error: String(err) }))}
    >
      {clusters.map((c) => (
        <option key={c.clusterId} value={c.clusterId} data-alert={c.worstAlert ?? 'none'}>
          {c.name} ({c.mode === 'live' ? c.status : c.mode}){c.worstAlert ? ` · ${ALERT_MARK[c.worstAlert]}` : ''}
        </option>
      ))}
    </select>
  );
}
