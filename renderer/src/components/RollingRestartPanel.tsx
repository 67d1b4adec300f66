import type { RollingRestartView } from '../view-model/rolling-restart.js';
import { formatClock } from '../view-model/format.js';

function ids(list: readonly number[]): string {
  return list.length === 0 ? 'none' : list.join(', ');
}

export function RollingRestartPanel({ view }: { view: RollingRestartView | null }) {
  if (!view) return <section className="rolling idle" data-testid="rolling-restart" data-state="idle">No restart in the last 10 minutes: every data node has stayed up.</section>;
  const state = view.complete ? 'complete' : 'running';
  return (
    <section className="rolling" data-testid="rolling-restart" data-state={state}>
      <h2>
        Rolling restart since {formatClock(view.startedAt)} — {view.complete ? 'COMPLETE' : `${view.done.length} done, ${view.remaining.length} to go`}
      </h2>
      <div className="rolling-grid">
        <div>
          <span className="label">Exposed now</span>
          <strong data-testid="exposed-groups" className={view.exposed.length > 0 ? 'tone-warn' : 'tone-ok'}>
            {view.exposed.length === 0 ? 'no node group' : view.exposed.map((g) => `NG ${g.nodeGroup} ${g.health}`).join(', ')}
          </strong>
        </div>
        <div>
          <span className="label">Restarting</span>
          <strong className="tone-busy">{ids(view.inProgress)}</strong>
        </div>
        <div>
          <span className="label">Next</span>
          <strong data-testid="next-node">{view.next === null ? (view.inProgress.length > 0 ? 'wait for the restart to finish' : '–') : `node ${view.next}`}</strong>
        </div>
        <div>
          <span className="label">Done</span>
          <span>{ids(view.done)}</span>
        </div>
      </div>
    </section>
  );
}
