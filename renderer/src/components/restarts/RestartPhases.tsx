import { useMemo } from 'react';
import { RESTART_PHASES, type PhaseRow } from '../../contract.js';
import { useApp } from '../../store/use-app.js';
import { formatClock, formatDuration } from '../../view-model/format.js';
import { startingNodePhases } from '../../view-model/restarts/restart-phase-rows.js';

function Cell({ row }: { row: PhaseRow }) {
  const base = row.baselineSecs === null ? '' : ` / ${Math.round(row.baselineSecs)} s`;
  const text = row.state === 'pending' ? (row.baselineSecs === null ? '·' : `~${Math.round(row.baselineSecs)} s`) : `${row.secs ?? 0} s${row.state === 'running' ? base : ''}`;
  const title = `${row.words}: ${row.state}${row.secs !== null ? `, ${row.secs} s` : ''}${row.baselineSecs !== null ? ` (baseline ${row.baselineSecs} s)` : ''}${row.overrun ? ' — much longer than its baseline' : ''}`;
  return (
    <td className={`phase-${row.state}${row.overrun ? ' tone-warn overrun' : ''}`} title={title} data-phase={row.key} data-state={row.state}>
      {row.overrun && <span aria-hidden="true">⚠ </span>}
      {text}
    </td>
  );
}

/**
 * restart_info's phases of every data node on its way back, in words: which phase runs, how long each took, the
 * baseline beside it (the node's previous restart, else the nodes this round restarted) and when it should be back.
 * Without the SQL source, one line that says how to turn it on.
 */
export function RestartPhases({ now }: { now: number }) {
  const nodes = useApp((s) => s.shown.nodes);
  const figures = useApp((s) => s.shown.ndbinfoNodes);
  const round = useApp((s) => s.shown.rollingRestart);
  const plan = useApp((s) => s.shown.rollingPlan);
  const status = useApp((s) => s.shown.ndbinfo?.source.status ?? null);
  const rows = useMemo(() => startingNodePhases(nodes, figures, round, plan, now), [nodes, figures, round, plan, now]);
  if (status === null) {
    return (
      <p className="muted restart-phases-hint" data-testid="restart-phases-hint">
        Restart phases and their ETA come from ndbinfo: start ndbtop with --sql mysql://USER@HOST to see them.
      </p>
    );
  }
  return (
    <section className="restart-phases" data-testid="restart-phases" aria-label="Restart phases">
      <h2>Restart phases {status !== 'up' && <span className="muted">(SQL source {status}: last seen)</span>}</h2>
      {rows.length === 0 ? (
        <p className="muted">No data node is starting.</p>
      ) : (
        <div className="phase-table-wrap">
          <table className="phase-table">
            <thead>
              <tr>
                <th scope="col">Node</th>
                <th scope="col">Now</th>
                {RESTART_PHASES.map((p) => (
                  <th key={p.key} scope="col" title={p.columns.join(', ')}>
                    {p.words}
                  </th>
                ))}
                <th scope="col">Back</th>
              </tr>
            </thead>
            <tbody>
              {rows.map(({ nodeId, now: words, source, progress }) => {
                const current = progress?.rows.find((r) => r.state === 'running');
                return (
                  <tr key={nodeId} data-testid={`phases-${nodeId}`} data-current={progress?.current ?? ''}>
                    <th scope="row">node {nodeId}</th>
                    <td className={current?.overrun ? 'tone-warn' : 'tone-busy'} data-testid={`phases-now-${nodeId}`} title={source ?? undefined}>
                      {words}
                      {current?.overrun && ' — much longer than its baseline'}
                      {!progress && <span className="muted phase-source"> (no restart_info row of this restart yet)</span>}
                    </td>
                    {progress ? progress.rows.map((r) => <Cell key={r.key} row={r} />) : RESTART_PHASES.map((p) => <td key={p.key} />)}
                    <td data-testid={`phase-eta-${nodeId}`} data-eta={progress?.etaAt ?? ''}>
                      {progress?.etaAt != null ? (
                        <span title={`from ${progress.baselineFrom ?? 'no baseline'}`}>
                          {formatClock(progress.etaAt)} ({progress.etaAt > now ? `in ${formatDuration(progress.etaAt - now)}` : 'due'})
                          <span className="muted phase-source"> from {progress.baselineFrom === 'previous restart' ? 'its previous restart' : 'this round'}</span>
                        </span>
                      ) : (
                        <span className="muted">no baseline yet</span>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
