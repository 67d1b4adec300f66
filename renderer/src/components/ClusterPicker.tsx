import { useApp, useAppContext } from '../store/use-app.js';

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
        <option key={c.clusterId} value={c.clusterId}>
          {c.name} ({c.mode === 'live' ? c.status : c.mode})
        </option>
      ))}
    </select>
  );
}
