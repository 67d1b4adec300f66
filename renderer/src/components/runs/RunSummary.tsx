import { RUN_FIGURES, type Bottleneck, type FigureStats, type RunReport } from '../../contract.js';
import { download } from '../../download.js';
import { useApp, useAppContext } from '../../store/use-app.js';
import { formatClock, formatDuration, formatRate } from '../../view-model/format.js';
import { RunRestarts } from './RunRestarts.js';

const STATS = ['mean', 'median', 'p5', 'p95', 'min', 'max'] as const;

const rate = (v: number | null | undefined): string => (v === null || v === undefined ? '–' : formatRate(v));
const percent = (v: number | null | undefined): string => (v === null || v === undefined ? '–' : `${(v * 100).toFixed(1)} %`);

function StatsRow({ label, stats, testId }: { label: string; stats: FigureStats | null; testId?: string }) {
  return (
    <tr data-testid={testId} data-mean={stats?.mean ?? ''}>
      <th>{label}</th>
      {STATS.map((k) => (
        <td key={k}>{rate(stats?.[k])}</td>
      ))}
    </tr>
  );
}

/** The verdict in one line and the evidence it rests on below it, as the report and the API give them. */
function BottleneckLine({ b, testId }: { b: Bottleneck; testId: string }) {
  return (
    <>
      <p className="run-bottleneck" data-testid={testId} data-kind={b.kind}>
        Bottleneck <strong>{b.kind}</strong>: {b.text}
      </p>
      {b.evidence.length > 0 && (
        <ul className="run-evidence" data-testid={`${testId}-evidence`} aria-label="evidence">
          {b.evidence.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      )}
    </>
  );
}

/** One run: figures, phases, data nodes, trouble, and its export. */
export function RunSummary({ report }: { report: RunReport }) {
  const { api, store } = useAppContext();
  const clusterId = useApp((s) => s.shown.clusterId);
  const s = report.summary;
  const exportAs = async (format: 'md' | 'csv' | 'json') => {
    try {
      const file = await api.exportRuns({ ...(clusterId ? { clusterId } : {}), runIds: [report.id], format, figure: 'transactions' });
      download(file.filename, file.mime, file.content);
    } catch (err) {
      store.setUi({ error: `export: ${err instanceof Error ? err.message : String(err)}` });
    }
  };
  return (
    <section className="run-summary" data-testid="run-summary" data-run-id={report.id}>
      <div className="toolbar">
        <h2>
          {report.name} <span className="muted">· {formatDuration(s.durationMs)} · {report.dataNodes} data nodes · {report.source}</span>
        </h2>
        <span className="spacer" />
        {(['md', 'csv', 'json'] as const).map((f) => (
          <button key={f} type="button" onClick={() => void exportAs(f)}>
            Export {f === 'md' ? 'Markdown' : f.toUpperCase()}
          </button>
        ))}
      </div>
      <table className="runs-table">
        <thead>
          <tr>
            <th>per second</th>
            {STATS.map((k) => (
              <th key={k}>{k}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {RUN_FIGURES.map((f) => (
            <StatsRow key={f} label={f} stats={s[f]} testId={`summary-${f}`} />
          ))}
        </tbody>
      </table>
      <p>
        Abort ratio {percent(s.abortRatio)}
        {s.imbalance && (
          <>
            {' '}
            · slowest data node: <strong data-testid="slowest-node">node {s.imbalance.slowestNodeId}</strong> at {percent(s.imbalance.ratioToMean)} of the mean
          </>
        )}
      </p>
      <BottleneckLine b={s.bottleneck} testId="run-bottleneck" />
      {report.phases.length > 0 && (
        <table className="runs-table" data-testid="run-phases">
          <thead>
            <tr>
              <th>phase</th>
              <th>duration</th>
              <th>steady after</th>
              <th>tx/s mean</th>
              <th>p5</th>
              <th>p95</th>
              <th>reads/s</th>
              <th>writes/s</th>
              <th>bottleneck</th>
            </tr>
          </thead>
          <tbody>
            {report.phases.map((p) => (
              <tr key={`${p.name}-${p.start}`} data-testid="phase-row" data-phase={p.name}>
                <th>{p.name}</th>
                <td>{formatDuration(p.summary.durationMs)}</td>
                <td>{p.summary.steadyAfterMs === null ? 'never' : formatDuration(p.summary.steadyAfterMs)}</td>
                <td>{rate(p.summary.transactions?.mean)}</td>
                <td>{rate(p.summary.transactions?.p5)}</td>
                <td>{rate(p.summary.transactions?.p95)}</td>
                <td>{rate(p.summary.reads?.mean)}</td>
                <td>{rate(p.summary.writes?.mean)}</td>
                <td data-testid="phase-bottleneck" data-kind={p.summary.bottleneck.kind} title={`${p.summary.bottleneck.text}\n${p.summary.bottleneck.evidence.join('\n')}`}>
                  {p.summary.bottleneck.kind}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <RunRestarts restarts={s.restarts} />
      <div className="run-nodes" data-testid="run-nodes">
        {s.perNode.map((n) => (
          <span key={n.nodeId} className="run-node" title={`node group ${n.nodeGroup ?? '?'}`}>
            node {n.nodeId}: {rate(n.meanTransactions)} tx/s ({percent(n.share)})
          </span>
        ))}
      </div>
      <ul className="run-events" data-testid="run-events">
        {s.nodeGroupTrouble.length === 0 && s.alerts.length === 0 && s.events.length === 0 && <li className="muted">Node groups healthy throughout; no warnings or alerts.</li>}
        {s.alerts.map((a) => (
          <li key={`a${a.at}${a.kind}`} className={a.severity === 'critical' ? 'tone-bad' : 'tone-warn'} data-kind={a.kind}>
            {formatClock(a.at)} {a.message}
          </li>
        ))}
        {s.events.map((e) => (
          <li key={`e${e.at}${e.name}${e.sourceNodeId}`}>
            {formatClock(e.at)} {e.severity} node {e.sourceNodeId}: {e.text}
          </li>
        ))}
      </ul>
    </section>
  );
}
