import type { NodeGroupView, NodeRestart, NodeView, RollingRestart } from '../../contract.js';
import { formatClock, formatDuration, formatNodeIds } from '../../view-model/format.js';
import { currentPhaseText } from '../../view-model/restarts/start-phase-names.js';

function ids(list: readonly number[]): string {
  return list.length === 0 ? 'none' : formatNodeIds(list);
}

function Eta({ view, now }: { view: RollingRestart; now: number }) {
  if (view.complete) return <strong className="tone-ok">done</strong>;
  if (view.etaAt === null) return <strong className="muted">after the first restart</strong>;
  // The engine's estimate counts from the last restart finished; a slower one than the pace shows as late, not moved on.
  return (
    <strong data-testid="rolling-eta" data-eta={view.etaAt} className={view.etaAt < now ? 'tone-warn' : undefined}>
      {formatClock(view.etaAt)} ({view.etaAt < now ? `${formatDuration(now - view.etaAt)} late` : `in ${formatDuration(view.etaAt - now)}`})
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
          {view.inProgress.map((id) => {
            const node = nodes.get(id);
            return (
              <strong key={id} className="tone-busy restarting" data-testid={`restarting-${id}`} data-status={node?.status} data-start-phase={node?.startPhase}>
                node {id}: {node ? currentPhaseText(node.status, node.startPhase) : '?'}
              </strong>
            );
          })}
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
