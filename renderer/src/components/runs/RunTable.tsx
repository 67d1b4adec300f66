import type { Run } from '../../contract.js';
import { formatClock, formatDuration } from '../../view-model/format.js';

/** Every run, newest first: a click shows its summary, the box ticks it for the comparison. */
export function RunTable({ runs, picked, onPick, shown, onShow }: { runs: readonly Run[]; picked: readonly string[]; onPick(id: string): void; shown: string | null; onShow(id: string): void }) {
  if (runs.length === 0) return <p className="muted">No runs yet: press r (or Start run), or let a benchmark script POST /api/runs.</p>;
  return (
    <table className="runs-table run-list" data-testid="run-list">
      <thead>
        <tr>
          <th>compare</th>
          <th>run</th>
          <th>tags</th>
          <th>started</th>
          <th>duration</th>
          <th>phases</th>
        </tr>
      </thead>
      <tbody>
        {[...runs].reverse().map((r) => (
          <tr key={r.id} data-testid="run-row" data-run-id={r.id} data-state={r.end === null ? 'running' : 'done'} data-imported={r.source !== undefined} aria-selected={r.id === shown} onClick={() => onShow(r.id)}>
            <td>
              <input type="checkbox" aria-label={`compare ${r.name}`} checked={picked.includes(r.id)} onClick={(e) => e.stopPropagation()} onChange={() => onPick(r.id)} />
            </td>
            <td>
              {r.end === null && <span className="tone-ok">● </span>}
              {r.name}
              {r.source !== undefined && (
                <span className="muted run-imported" data-testid="run-imported" title={`imported from ${r.source}`}>
                  {' '}
                  · imported from {r.source}
                </span>
              )}
            </td>
            <td>
              {Object.entries(r.tags)
                .map(([k, v]) => `${k}=${v}`)
                .join(' ')}
            </td>
            <td>{formatClock(r.start)}</td>
            <td>{r.end === null ? 'running' : formatDuration(r.end - r.start)}</td>
            <td>{r.phases.map((p) => p.name).join(' → ')}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
