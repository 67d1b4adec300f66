import type { NodeGroupView, NodeRestart, NodeView, RollingRestart } from '../../contract.js';
import { formatClock, formatDuration, formatNodeIds } from '../../view-model/format.js';
import { restartingLines } from '../../view-model/restarts/restart-state-text.js';
import { finishText } from '../../view-model/restarts/eta-range.js';

function ids(list: readonly number[]): string {
  return list.length === 0 ? 'none' : formatNodeIds(list);
}

function Eta({ view, now }: { view: RollingRestart; now: number }) {
  if (view.complete) return <strong className="tone-ok">done</strong>;
  if (view.etaAt === null || view.etaRange === null) return <strong className="muted">known once a restart is seen from start to end</strong>;
  // The engine's estimate counts from the restarts it saw whole; one slower than the range shows as overdue, not moved on.
  return (
    <strong data-testid="rolling-eta" data-eta={view.etaAt} data-eta-from={view.etaRange.from} data-eta-to={view.etaRange.to} className={view.etaRange.to < now ? 'tone-warn' : undefined}>
      {finishText(view.etaRange, view.etaBasis, 'restart', now)}
    </strong>
  );
}

function restartTime(r: NodeRestart, now: number): string {
  if (r.to !== null) return `${r.underWayAtConnect ? '≥ ' : ''}${formatDuration(r.to - r.from)}${r.underWayAtConnect ? ' (under way when ndbtop connected)' : ''}`;
  return r.underWayAtConnect ? `≥ ${formatDuration(now - r.from)} so far (under way when ndbtop connected)` : `${formatDuration(now - r.from)} so far`;
}

export function RollingRestartPanel({ view, exposed, nodes, now }: { view: RollingRestart | null; exposed: readonly NodeGroupView[]; nodes: ReadonlyMap<number, NodeView>; now: number }) {
  if (!view) return <section className="rolling idle" data-testid="rolling-restart" data-state="idle">No restart in the last 10 minutes: every data node has stayed up.</section>;
  const state = view.complete ? 'complete' : 'running';
  return (
    <section className="rolling" data-testid="rolling-restart" data-state={state} data-started={view.startedAt}>
      <h2>
        Rolling restart since {formatClock(view.startedAt)} — {view.complete ? 'COMPLETE' : `${view.done.length} done, ${view.remaining.length + view.inProgress.length} to go`}
      </h2>
      <div className="rolling-grid">
        <div>
          <span className="label">Exposed now</span>
          <strong data-testid="exposed-groups" className={exposed.length > 0 ? 'tone-warn' : 'tone-ok'}>
            {exposed.length === 0 ? 'no node group' : exposed.map((g) => `NG ${g.nodeGroup} ${g.health}`).join(', ')}
          </strong>
        </div>
        <div>
          <span className="label">Restarting</span>
          {view.inProgress.length === 0 && <strong className="tone-busy">none</strong>}
          {restartingLines(view.inProgress, nodes).map(({ nodeId, words, phase, source }) => (
            <strong
              key={nodeId}
              className="tone-busy restarting"
              data-testid={`restarting-${nodeId}`}
              data-phase={phase ?? ''}
              data-status={nodes.get(nodeId)?.status}
              data-start-phase={nodes.get(nodeId)?.startPhase}
              title={source ?? undefined}
            >
              node {nodeId}: {words}
            </strong>
          ))}
        </div>
        <div>
          <span className="label">Next</span>
          <strong data-testid="next-node">{view.next === null ? (view.inProgress.length > 0 ? 'wait for the restart to finish' : '–') : `node ${view.next}`}</strong>
        </div>
        <div>
          <span className="label">Round ends</span>
          <Eta view={view} now={now} />
        </div>
      </div>
      <div className="rolling-restarts">
        {/* The list also times the restart under way, so it is not headed "done". */}
        <span className="label" data-testid="restart-times-label">Restart times (done: {ids(view.done)})</span>
        <ul className="plain restart-durations">
          {view.restarts.map((r) => (
            <li key={`${r.nodeId}-${r.from}`} data-testid={`restart-duration-${r.nodeId}`}>
              node {r.nodeId}: {restartTime(r, now)}
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
