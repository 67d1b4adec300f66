import { useMemo } from 'react';
import { RestartTimeline, TimelineLegend } from '../components/restarts/RestartTimeline.js';
import { RollingRestartPanel } from '../components/restarts/RollingRestartPanel.js';
import { RollingConductorPanel } from '../components/restarts/RollingConductorPanel.js';
import { RestartPhases } from '../components/restarts/RestartPhases.js';
import { useNow } from '../hooks/use-now.js';
import { useTimeline } from '../hooks/use-timeline.js';
import { useApp } from '../store/use-app.js';

export function RestartsView() {
  const timeline = useTimeline();
  const nodes = useApp((s) => s.shown.nodes);
  const nodeGroups = useApp((s) => s.shown.nodeGroups);
  // The engine's record of the round, never derived from the timeline: that is only as long as the chart's window.
  const rolling = useApp((s) => s.shown.rollingRestart);
  const pausedAt = useApp((s) => s.ui.pausedAt);
  const tick = useNow();
  const now = pausedAt ?? tick;
  const exposed = useMemo(() => nodeGroups.filter((g) => g.health !== 'OK'), [nodeGroups]);
  const rows = useMemo(
    () =>
      [...nodes.values()]
        .filter((n) => n.type !== 'API')
        .map((n) => ({ nodeId: n.nodeId, label: n.type === 'NDB' ? `node ${n.nodeId} NG ${String(n.nodeGroup)}` : `node ${n.nodeId} mgm` })),
    [nodes],
  );
  return (
    <div className="view restarts-view">
      <RollingConductorPanel now={now} />
      {/* Phases before the round's per-node list: at 48 nodes that list is a screen long. */}
      <RestartPhases now={now} />
      <RollingRestartPanel view={rolling} exposed={exposed} nodes={nodes} now={now} />
      <h2>Status timeline</h2>
      <TimelineLegend />
      {timeline ? <RestartTimeline timeline={timeline} rows={rows} now={now} /> : <p className="muted">Loading the timeline…</p>}
    </div>
  );
}
