import { useEffect, useMemo, useRef, useState } from 'react';
import { CartesianGrid, Legend, Line, LineChart, ReferenceLine, Tooltip, XAxis, YAxis } from 'recharts';
import { RUN_FIGURES, type FigureStats, type Run, type RunFigure, type RunReport, type RunReports } from '../contract.js';
import { useRunControls } from '../components/RunControls.js';
import { download } from '../download.js';
import { useSize } from '../hooks/use-size.js';
import { useApp, useAppContext } from '../store/use-app.js';
import { formatClock, formatDuration, formatRate } from '../view-model/format.js';
import { alignOffset, commonPhases, overlayRows, parseTags, ratioText } from '../view-model/runs.js';

const STATS = ['mean', 'median', 'p5', 'p95', 'min', 'max'] as const;
const RUN_COLOURS = ['#4fc3f7', '#ffa24d', '#81c784', '#ba68c8', '#ffd54f', '#ff6e91'];
/** While a shown run is running its report is asked again this often. */
const REFRESH_MS = 2000;

const rate = (v: number | null | undefined): string => (v === null || v === undefined ? '–' : formatRate(v));
const percent = (v: number | null | undefined): string => (v === null || v === undefined ? '–' : `${(v * 100).toFixed(1)} %`);

/**
 * Reports of `runIds` (their comparison when two or more), asked again when the runs change and, while one of
 * them is running, every couple of seconds. A stale answer is dropped.
 */
function useRunReports(runIds: readonly string[], figure: RunFigure, align: string): RunReports | null {
  const { api, store } = useAppContext();
  const clusterId = useApp((s) => s.shown.clusterId);
  const runs = useApp((s) => s.shown.runs);
  const anyRunning = runs.some((r) => r.end === null && runIds.includes(r.id));
  const tick = useApp((s) => (anyRunning ? Math.floor(s.shown.historyUntil / REFRESH_MS) : 0));
  const [reports, setReports] = useState<RunReports | null>(null);
  const key = runIds.join(',');
  const runsKey = runs.map((r) => `${r.id}:${r.phases.length}:${r.end ?? ''}`).join(',');
  useEffect(() => {
    if (clusterId === null || key === '') {
      setReports(null);
      return;
    }
    let current = true;
    api
      .getRunReports({ clusterId, runIds: key.split(','), figure, ...(align === 'start' ? {} : { align }) })
      .then((r) => current && setReports(r))
      .catch((err: unknown) => store.setUi({ error: `runs: ${err instanceof Error ? err.message : String(err)}` }));
    return () => {
      current = false;
    };
  }, [api, store, clusterId, key, figure, align, runsKey, tick]);
  return reports;
}

function Controls() {
  const { api, store } = useAppContext();
  const clusterId = useApp((s) => s.shown.clusterId);
  const controls = useRunControls();
  const [name, setName] = useState('');
  const [tags, setTags] = useState('');
  const [phase, setPhase] = useState('');
  const importFile = async (file: File) => {
    try {
      const runs = await api.importRecording({ name: file.name, content: await file.text() });
      store.setUi({ error: null });
      window.dispatchEvent(new CustomEvent(IMPORTED_EVENT, { detail: runs }));
    } catch (err) {
      store.setUi({ error: `import ${file.name}: ${err instanceof Error ? err.message : String(err)}` });
    }
  };
  return (
    <div className="toolbar runs-toolbar" data-testid="run-controls" data-running={controls.running?.id ?? ''}>
      {controls.running ? (
        <>
          <span className="run-live" data-testid="run-running">
            ● {controls.running.name} · {controls.running.phases.at(-1)?.name ?? 'no phase'}
          </span>
          <input aria-label="phase name" placeholder="next phase (m)" value={phase} onChange={(e) => setPhase(e.target.value)} />
          <button type="button" data-testid="run-phase" onClick={() => void controls.mark(phase).then(() => setPhase(''))}>
            Mark phase (m)
          </button>
          <button type="button" data-testid="run-stop" onClick={() => void controls.stop()}>
            Stop run (r)
          </button>
        </>
      ) : (
        <>
          <input aria-label="run name" placeholder="run name" value={name} onChange={(e) => setName(e.target.value)} />
          <input aria-label="run tags" placeholder="tags: compress=on nodes=8" value={tags} onChange={(e) => setTags(e.target.value)} />
          <button type="button" data-testid="run-start" disabled={clusterId === null} onClick={() => void controls.start(name, parseTags(tags)).then(() => setName(''))}>
            Start run (r)
          </button>
        </>
      )}
      <span className="spacer" />
      <label className="file-button">
        Compare with a recording…
        <input type="file" accept=".jsonl,.json,.ndjson,text/plain" onChange={(e) => e.target.files?.[0] && void importFile(e.target.files[0])} />
      </label>
    </div>
  );
}

const IMPORTED_EVENT = 'ndbtop:runs-imported';

function RunTable({ runs, picked, onPick, shown, onShow }: { runs: readonly Run[]; picked: readonly string[]; onPick(id: string): void; shown: string | null; onShow(id: string): void }) {
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
          <tr key={r.id} data-testid="run-row" data-run-id={r.id} data-state={r.end === null ? 'running' : 'done'} aria-selected={r.id === shown} onClick={() => onShow(r.id)}>
            <td>
              <input type="checkbox" aria-label={`compare ${r.name}`} checked={picked.includes(r.id)} onClick={(e) => e.stopPropagation()} onChange={() => onPick(r.id)} />
            </td>
            <td>
              {r.end === null && <span className="tone-ok">● </span>}
              {r.name}
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

function Summary({ report }: { report: RunReport }) {
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
              </tr>
            ))}
          </tbody>
        </table>
      )}
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

function Overlay({ reports, figure, align }: { reports: readonly RunReport[]; figure: RunFigure; align: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const { width } = useSize(ref);
  const rows = useMemo(() => overlayRows(reports, figure, align), [reports, figure, align]);
  const collapses = reports.flatMap((r) => r.summary.alerts.filter((a) => a.kind === 'throughput-collapse').map((a) => ({ id: r.id, t: (a.at - r.start - alignOffset(r, align)) / 1000 })));
  return (
    <div ref={ref} className="chart-box" data-testid="run-overlay" data-points={rows.length}>
      {width > 0 && (
        <LineChart width={width} height={280} data={rows} margin={{ top: 16, right: 24, bottom: 8, left: 8 }}>
          <CartesianGrid stroke="var(--grid)" strokeDasharray="3 3" />
          <XAxis dataKey="t" type="number" allowDecimals={false} domain={['dataMin', 'dataMax']} tickFormatter={(t: number) => `${Math.round(t)} s`} stroke="var(--fg-muted)" />
          <YAxis tickFormatter={formatRate} stroke="var(--fg-muted)" width={60} />
          <Tooltip labelFormatter={(t) => `${Number(t).toFixed(0)} s from ${align}`} formatter={(v) => `${formatRate(Number(v))}/s`} contentStyle={{ background: 'var(--bg-raised)', border: '1px solid var(--border)' }} />
          <Legend />
          {reports.map((r, i) => (
            <Line key={r.id} dataKey={r.id} name={r.name} stroke={RUN_COLOURS[i % RUN_COLOURS.length]} dot={false} strokeWidth={2} isAnimationActive={false} connectNulls />
          ))}
          {align !== 'start' && <ReferenceLine x={0} stroke="var(--fg)" strokeDasharray="6 3" label={{ value: align, fill: 'var(--fg)', position: 'insideTopLeft' }} />}
          {collapses.map((c) => (
            <ReferenceLine key={`${c.id}${c.t}`} x={c.t} stroke="var(--bad)" label={{ value: 'collapse', fill: 'var(--bad)', position: 'insideTopRight' }} />
          ))}
        </LineChart>
      )}
    </div>
  );
}

function ScaleOut({ reports }: { reports: RunReports }) {
  const ref = useRef<HTMLDivElement>(null);
  const { width } = useSize(ref);
  const points = reports.comparison?.scaleOut ?? [];
  if (new Set(points.map((p) => p.dataNodes)).size < 2) return <p className="muted">Scale-out: the runs have the same number of data nodes (tag them nodes=N to plot throughput against data nodes).</p>;
  return (
    <div ref={ref} className="chart-box" data-testid="scale-out" data-points={points.length} data-efficiency={points.at(-1)?.efficiency ?? ''}>
      {width > 0 && (
        <LineChart width={width} height={240} data={points} margin={{ top: 16, right: 24, bottom: 8, left: 8 }}>
          <CartesianGrid stroke="var(--grid)" strokeDasharray="3 3" />
          <XAxis dataKey="dataNodes" type="number" domain={[0, 'dataMax']} stroke="var(--fg-muted)" label={{ value: 'data nodes', position: 'insideBottomRight', fill: 'var(--fg-muted)' }} />
          <YAxis tickFormatter={formatRate} stroke="var(--fg-muted)" width={60} />
          <Tooltip formatter={(v) => `${formatRate(Number(v))}/s`} contentStyle={{ background: 'var(--bg-raised)', border: '1px solid var(--border)' }} />
          <Legend />
          <Line dataKey="mean" name="measured" stroke="#4fc3f7" strokeWidth={2} isAnimationActive={false} />
          <Line dataKey="linear" name="perfect linear" stroke="var(--fg-muted)" strokeDasharray="6 3" dot={false} isAnimationActive={false} />
        </LineChart>
      )}
    </div>
  );
}

function Compare({ runIds, runs }: { runIds: readonly string[]; runs: readonly Run[] }) {
  const [figure, setFigure] = useState<RunFigure>('transactions');
  const [align, setAlign] = useState('start');
  const reports = useRunReports(runIds, figure, align);
  const phases = commonPhases(reports?.runs ?? runs.filter((r) => runIds.includes(r.id)));
  const comparison = reports?.comparison;
  return (
    <section className="run-compare" data-testid="run-comparison" data-align={align}>
      <div className="toolbar">
        <h2>Comparison against {reports?.runs[0]?.name ?? '…'}</h2>
        <span className="spacer" />
        <label>
          figure{' '}
          <select aria-label="figure" value={figure} onChange={(e) => setFigure(e.target.value as RunFigure)}>
            {RUN_FIGURES.map((f) => (
              <option key={f}>{f}</option>
            ))}
          </select>
        </label>
        <label>
          align at{' '}
          <select aria-label="align at" data-testid="run-align" value={align} onChange={(e) => setAlign(e.target.value)}>
            <option value="start">start</option>
            {phases.map((p) => (
              <option key={p} value={p}>
                phase {p}
              </option>
            ))}
          </select>
        </label>
      </div>
      {reports && <Overlay reports={reports.runs} figure={figure} align={align} />}
      {comparison && (
        <table className="runs-table" data-testid="ratio-table">
          <thead>
            <tr>
              <th>B / A</th>
              {RUN_FIGURES.map((f) => (
                <th key={f}>{f}/s</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {comparison.rows.map((row) => (
              <tr key={row.runId} data-testid="ratio-row" data-run-id={row.runId}>
                <th>{row.name}</th>
                {row.ratios.map((r) => (
                  <td key={r.figure} data-figure={r.figure} data-ratio={r.ratio ?? ''}>
                    {ratioText(r)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {reports && <ScaleOut reports={reports} />}
    </section>
  );
}

export function RunsView() {
  const sessionRuns = useApp((s) => s.shown.runs);
  const [imported, setImported] = useState<readonly Run[]>([]);
  const [picked, setPicked] = useState<readonly string[]>([]);
  const [chosen, setChosen] = useState<string | null>(null);
  useEffect(() => {
    const add = (e: Event) => setImported((prev) => [...prev, ...((e as CustomEvent<Run[]>).detail ?? [])]);
    window.addEventListener(IMPORTED_EVENT, add);
    return () => window.removeEventListener(IMPORTED_EVENT, add);
  }, []);
  const runs = useMemo(() => [...imported, ...sessionRuns], [imported, sessionRuns]);
  const shown = chosen ?? sessionRuns.at(-1)?.id ?? null;
  const summary = useRunReports(shown ? [shown] : [], 'transactions', 'start');
  const pick = (id: string) => setPicked((prev) => (prev.includes(id) ? prev.filter((x) => x !== id) : [...prev, id]));
  return (
    <div className="view runs-view">
      <Controls />
      <h2>Runs</h2>
      <RunTable runs={runs} picked={picked} onPick={pick} shown={shown} onShow={setChosen} />
      {summary?.runs[0] && <Summary report={summary.runs[0]} />}
      {picked.length >= 2 ? <Compare runIds={picked} runs={runs} /> : runs.length >= 2 && <p className="muted">Tick two or more runs to compare them (the first ticked is the baseline A).</p>}
    </div>
  );
}
