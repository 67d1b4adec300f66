import type { RunSummary } from '../../contract.js';
import { formatClock, formatDuration } from '../../view-model/format.js';

/** The data nodes that were down during a run: a rolling restart's time per node and, with the SQL source, per phase. */
export function RunRestarts({ restarts }: { restarts: RunSummary['restarts'] }) {
  if (restarts.length === 0) return null;
  return (
    <table className="runs-table" data-testid="run-restarts">
      <caption>Data nodes down during the run</caption>
      <thead>
        <tr>
          <th>node</th>
          <th>down</th>
          <th>back</th>
          <th>took</th>
          <th className="restart-phases">phases (restart_info)</th>
        </tr>
      </thead>
      <tbody>
        {restarts.map((r) => (
          <tr key={`${r.nodeId}-${r.downAt}`} data-testid="restart-row" data-node-id={r.nodeId}>
            <th>node {r.nodeId}</th>
            <td>{formatClock(r.downAt)}</td>
            <td>{r.upAt === null ? 'not back' : formatClock(r.upAt)}</td>
            <td>{r.upAt === null ? '' : formatDuration(r.upAt - r.downAt)}</td>
            <td className={r.phases === null ? 'restart-phases muted' : 'restart-phases'}>{r.phases === null ? 'without the SQL source' : r.phases.map((p) => `${p.words}\u00a0${p.secs}\u00a0s`).join(' · ')}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
