import { useMemo, useRef, useState } from 'react';
import { CartesianGrid, Legend, Line, LineChart, ReferenceLine, Tooltip, XAxis, YAxis } from 'recharts';
import { commonPhases, legendNames, RUN_FIGURES, type Run, type RunFigure, type RunReport, type RunReports } from '../../contract.js';
import { useRunReports } from '../../hooks/use-run-reports.js';
import { useSize } from '../../hooks/use-size.js';
import { formatAxisRate, formatRate } from '../../view-model/format.js';
import { alignOffset, overlaySeries, ratioText } from '../../view-model/runs.js';

const RUN_COLOURS = ['#4fc3f7', '#ffa24d', '#81c784', '#ba68c8', '#ffd54f', '#ff6e91'];

function Overlay({ reports, figure, align }: { reports: readonly RunReport[]; figure: RunFigure; align: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const { width } = useSize(ref);
  const { rows, lines } = useMemo(() => overlaySeries(reports, figure, align), [reports, figure, align]);
  const names = legendNames(reports);
  const collapses = reports.flatMap((r) => r.summary.alerts.filter((a) => a.kind === 'throughput-collapse').map((a) => ({ id: r.id, t: (a.at - r.start - alignOffset(r, align)) / 1000 })));
  return (
    <div ref={ref} className="chart-box chart-box-sized" data-testid="run-overlay" data-points={rows.length} data-lines={lines.length}>
      {width > 0 && (
        <LineChart width={width} height={280} data={rows} margin={{ top: 16, right: 24, bottom: 8, left: 8 }}>
          <CartesianGrid stroke="var(--grid)" strokeDasharray="3 3" />
          <XAxis dataKey="t" type="number" allowDecimals={false} domain={['dataMin', 'dataMax']} tickFormatter={(t: number) => `${Math.round(t)} s`} stroke="var(--fg-muted)" />
          <YAxis tickFormatter={formatAxisRate} stroke="var(--fg-muted)" width={68} />
          <Tooltip labelFormatter={(t) => `${Number(t).toFixed(0)} s from ${align}`} formatter={(v) => `${formatRate(Number(v))}/s`} contentStyle={{ background: 'var(--bg-raised)', border: '1px solid var(--border)' }} />
          <Legend />
          {/* connectNulls bridges the other runs' instants only: lost seconds split a run into lines of their own. */}
          {lines.map((l) => (
            <Line key={l.key} dataKey={l.key} name={names[l.run]} legendType={l.first ? 'line' : 'none'} stroke={RUN_COLOURS[l.run % RUN_COLOURS.length]} dot={l.samples === 1} strokeWidth={2} isAnimationActive={false} connectNulls />
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
    <div ref={ref} className="chart-box chart-box-sized" data-testid="scale-out" data-points={points.length} data-efficiency={points.at(-1)?.efficiency ?? ''}>
      {width > 0 && (
        <LineChart width={width} height={240} data={points} margin={{ top: 16, right: 24, bottom: 8, left: 8 }}>
          <CartesianGrid stroke="var(--grid)" strokeDasharray="3 3" />
          <XAxis dataKey="dataNodes" type="number" domain={[0, 'dataMax']} stroke="var(--fg-muted)" label={{ value: 'data nodes', position: 'insideBottomRight', fill: 'var(--fg-muted)' }} />
          <YAxis tickFormatter={formatAxisRate} stroke="var(--fg-muted)" width={68} />
          <Tooltip formatter={(v) => `${formatRate(Number(v))}/s`} contentStyle={{ background: 'var(--bg-raised)', border: '1px solid var(--border)' }} />
          <Legend />
          <Line dataKey="mean" name="measured" stroke="#4fc3f7" strokeWidth={2} isAnimationActive={false} />
          <Line dataKey="linear" name="perfect linear" stroke="var(--fg-muted)" strokeDasharray="6 3" dot={false} isAnimationActive={false} />
        </LineChart>
      )}
    </div>
  );
}

/** Two or more runs: overlay aligned at start or a phase, B/A ratios, and scale-out against data nodes. */
export function RunCompare({ runIds, runs }: { runIds: readonly string[]; runs: readonly Run[] }) {
  const [figure, setFigure] = useState<RunFigure>('transactions');
  // null until chosen: the engine's default, the first phase the runs share after warm-up.
  const [chosen, setAlign] = useState<string | null>(null);
  const reports = useRunReports(runIds, figure, chosen);
  const phases = commonPhases(reports?.runs ?? runs.filter((r) => runIds.includes(r.id)));
  const comparison = reports?.comparison;
  const align = chosen ?? comparison?.align ?? 'start';
  const baseline = reports?.runs[0];
  return (
    <section className="run-compare" data-testid="run-comparison" data-align={align}>
      <div className="toolbar">
        <h2>Comparison against {baseline?.name ?? '…'}</h2>
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
      {baseline?.end === null && (
        <p className="warning" role="status" data-testid="baseline-running">
          ⚠ The baseline {baseline.name} is still running: its figures, and every ratio against it, will change.
        </p>
      )}
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
