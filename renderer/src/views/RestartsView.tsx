import { useMemo } from 'react';
import { RestartTimeline, TimelineLegend } from '../components/restarts/RestartTimeline.js';
import { RollingRestartPanel } from '../components/restarts/RollingRestartPanel.js';
import { useNow } from '../hooks/use-now.js';
import { useTimeline } from '../hooks/use-timeline.js';
import { useApp } from '../store/use-app.js';
import { rollingRestart } from '../view-model/rolling-restart.js';

export function RestartsView() {
  const timeline = useTimeline();
  const nodes = useApp((s) => s.shown.nodes);
  const nodeGroups = useApp((s) => s.shown.nodeGroups);
  const pausedAt = useApp((s) => s.ui.pausedAt);
  const tick = useNow();
  const now = pausedAt ?? tick;
  const view = useMemo(() => (timeline ? rollingRestart(timeline, nodes, nodeGroups, now) : null), [timeline, nodes, nodeGroups, now]);
  const rows = useMemo(
    () =>
      [...nodes.values()]
        .filter((n) => n.type !== 'API')
        .map((n) => ({ nodeId: n.nodeId, label: n.type === 'NDB' ? `node ${n.nodeId} NG ${String(n.nodeGroup)}` : `node ${n.nodeId} mgm` })),
    [nodes],
  );
  return (
    <div className="view restarts-view">
      <RollingRestartPanel view={view} nodes={nodes} now={now} />
      <h2>Status timeline</h2>
      <TimelineLegend />
      {timeline ? <RestartTimeline timeline={timeline} rows={rows} now={now} /> : <p className="muted">Loading the timeline…</p>}
    </div>
  );
}
