import { useMemo, useRef, useState } from 'react';
import { CartesianGrid, Legend, Line, LineChart, ReferenceLine, Tooltip, XAxis, YAxis } from 'recharts';
import type { HistorySeries, Metric } from '../contract.js';
import { useRunControls } from '../components/RunControls.js';
import { Sparkline } from '../components/Sparkline.js';
import { download } from '../download.js';
import { useHistoryQuery } from '../hooks/use-history-query.js';
import { useSize } from '../hooks/use-size.js';
import { useApp, useAppContext } from '../store/use-app.js';
import { WINDOWS } from '../store/ui-slice.js';
import { axisWidth, formatAxisRate, formatClock, formatRate } from '../view-model/format.js';
import { runLines } from '../view-model/runs.js';
import { timeTicks } from '../view-model/time-ticks.js';

export const TOTAL_METRICS = ['transactions', 'commits', 'reads', 'writes', 'scans', 'aborts'] as const satisfies readonly Metric[];
const COLOURS: Record<(typeof TOTAL_METRICS)[number], string> = {
  transactions: '#4fc3f7',
  commits: '#81c784',
  reads: '#ffd54f',
  writes: '#ffa24d',
  scans: '#ba68c8',
  aborts: '#ff3355',
};
const SMALL_WIDTH = 200;
/** Chart width not used by the plot: the y axis and the margins. */
const PLOT_MARGIN = 92;
const SMALL_HEIGHT = 48;

/** Columnar series to the row objects recharts draws. */
export function toRows(history: HistorySeries | null): Record<string, number | null>[] {
  if (!history) return [];
  return history.at.map((at, i) => {
    const row: Record<string, number | null> = { at };
    for (const s of history.series) if (s.nodeId === null) row[s.metric] = s.values[i] ?? null;
    return row;
  });
}

function ClusterChart() {
  const ref = useRef<HTMLDivElement>(null);
  const { width } = useSize(ref);
  const marks = useApp((s) => s.ui.phaseMarks);
  const alerts = useApp((s) => s.live.alerts);
  const collapses = useMemo(() => alerts.filter((a) => a.kind === 'throughput-collapse'), [alerts]);
  const runs = useApp((s) => s.live.runs);
  const runMarks = useMemo(() => runLines(runs), [runs]);
  // The window's end moves with the query (a pixel at a time), so the chart redraws only with new data.
  const { history, until } = useHistoryQuery(TOTAL_METRICS, width);
  const windowMs = useApp((s) => WINDOWS[s.ui.window]);
  const rows = useMemo(() => toRows(history), [history]);
  // The widest label is the one near the top of the data: size the axis for it (and a rounded-up tick above it).
  const yWidth = useMemo(() => {
    let max = 0;
    for (const r of rows) for (const m of TOTAL_METRICS) max = Math.max(max, r[m] ?? 0);
    return axisWidth([formatAxisRate(max), formatAxisRate(max * 1.25)]);
  }, [rows]);
  return (
    <div ref={ref} className="chart-box" data-testid="throughput-chart" data-points={rows.length} data-collapses={collapses.length}>
      {width > 0 && (
        <LineChart width={width} height={320} data={rows} margin={{ top: 16, right: 24, bottom: 8, left: 8 }}>
          <CartesianGrid stroke="var(--grid)" strokeDasharray="3 3" />
          {/* Explicit round ticks: recharts' own put them where the data is, on top of each other on a fresh start. */}
          <XAxis dataKey="at" type="number" scale="time" domain={[until - windowMs, until]} ticks={timeTicks(until - windowMs, until, width - PLOT_MARGIN)} allowDataOverflow tickFormatter={formatClock} stroke="var(--fg-muted)" />
          <YAxis tickFormatter={formatAxisRate} stroke="var(--fg-muted)" width={yWidth} allowDecimals={false} domain={[0, 'auto']} />
          <Tooltip labelFormatter={(at) => `sampled ${formatClock(Number(at))}`} formatter={(v) => `${formatRate(Number(v))}/s`} contentStyle={{ background: 'var(--bg-raised)', border: '1px solid var(--border)' }} />
          <Legend />
          {TOTAL_METRICS.map((m) => (
            <Line key={m} dataKey={m} name={`${m}/s`} stroke={COLOURS[m]} dot={false} strokeWidth={2} isAnimationActive={false} connectNulls={false} />
          ))}
          {marks.map((mark) => (
            <ReferenceLine key={mark.at} x={mark.at} stroke="var(--fg)" strokeDasharray="6 3" label={{ value: mark.label, fill: 'var(--fg)', position: 'insideTopLeft' }} />
          ))}
          {runMarks.map((m) => (
            <ReferenceLine key={`${m.at}${m.label}`} x={m.at} stroke="var(--busy)" strokeDasharray="2 4" label={{ value: m.label, fill: 'var(--busy)', position: 'insideBottomLeft' }} />
          ))}
          {collapses.map((a) => (
            <ReferenceLine key={a.id} x={a.at} stroke="var(--bad)" strokeWidth={2} label={{ value: 'collapse', fill: 'var(--bad)', position: 'insideTopRight' }} />
          ))}
        </LineChart>
      )}
    </div>
  );
}

/**
 * "143 of 144 data nodes reporting": how much of the cluster the totals are made of; and how many reports the
 * engine dropped as impossible (a negative count read unsigned), so a figure it refused to chart is not a secret.
 */
function Coverage() {
  const contributing = useApp((s) => s.shown.rates?.contributing);
  const rejected = useApp((s) => s.shown.rates?.rejectedReports ?? 0);
  if (!contributing) return <span className="muted" data-testid="rates-coverage" data-nodes={0} />;
  const partial = contributing.nodes < contributing.of;
  return (
    <span className={partial ? 'tone-warn' : 'muted'} data-testid="rates-coverage" data-nodes={contributing.nodes} data-of={contributing.of} data-rejected={rejected}>
      {' '}
      — {contributing.nodes} of {contributing.of} data nodes reporting
      {rejected > 0 && <span className="tone-bad"> · {rejected} impossible statistics reports ignored</span>}
    </span>
  );
}

function SmallMultiples() {
  const staleKey = useApp((s) => [...s.shown.nodes.values()].filter((n) => n.type === 'NDB' && n.lastSeenAt != null).map((n) => n.nodeId).join(','));
  const stale = useMemo(() => new Set(staleKey ? staleKey.split(',').map(Number) : []), [staleKey]);
  const nodesKey = useApp((s) => [...s.shown.nodes.values()].filter((n) => n.type === 'NDB').map((n) => n.nodeId).join(','));
  const nodeIds = useMemo(() => (nodesKey ? nodesKey.split(',').map(Number) : []), [nodesKey]);
  const { history } = useHistoryQuery(['transactions'], SMALL_WIDTH, nodeIds);
  const byNode = new Map(history?.series.filter((s) => s.nodeId !== null).map((s) => [s.nodeId, s.values.map((v) => v ?? NaN)]));
  return (
    <div className="small-multiples" data-testid="node-throughput">
      {nodeIds.map((id) => {
        const values = byNode.get(id) ?? [];
        const last = [...values].reverse().find(Number.isFinite);
        return (
          <figure key={id} className={`small-multiple${stale.has(id) ? ' stale' : ''}`} data-stale={stale.has(id)}>
            <figcaption>
              node {id} {stale.has(id) ? 'out of contact, was ' : ''}
              <strong>{last === undefined ? '–' : formatRate(last)}</strong> tx/s
            </figcaption>
            <Sparkline values={values} width={SMALL_WIDTH} height={SMALL_HEIGHT} label={`node ${id} transactions per second`} />
          </figure>
        );
      })}
    </div>
  );
}

function Toolbar() {
  const { api, store } = useAppContext();
  const clusterId = useApp((s) => s.shown.clusterId);
  const [label, setLabel] = useState('');
  const exportAs = async (format: 'csv' | 'json') => {
    if (clusterId === null) return;
    try {
      const file = await api.exportHistory({ clusterId, format });
      download(file.filename, file.mime, file.content);
    } catch (err) {
      store.setUi({ error: `export: ${err instanceof Error ? err.message : String(err)}` });
    }
  };
  const runs = useRunControls();
  const mark = () => {
    // During a run the mark is the run's next phase: recorded, summarised and seen by every screen.
    if (runs.running) return void runs.mark(label).then(() => setLabel(''));
    const { ui } = store.getState();
    store.setUi({ phaseMarks: [...ui.phaseMarks, { at: Date.now(), label: label.trim() || `phase ${ui.phaseMarks.length + 1}` }] });
    setLabel('');
  };
  return (
    <div className="toolbar">
      <input aria-label="benchmark phase label" placeholder="benchmark phase label" value={label} onChange={(e) => setLabel(e.target.value)} />
      <button type="button" onClick={mark}>
        Mark phase
      </button>
      <span className="spacer" />
      <button type="button" onClick={() => void exportAs('csv')}>
        Export CSV
      </button>
      <button type="button" onClick={() => void exportAs('json')}>
        Export JSON
      </button>
    </div>
  );
}

export function ThroughputView() {
  return (
    <div className="view throughput-view">
      <Toolbar />
      <h2>
        Cluster throughput (per second)
        <Coverage />
      </h2>
      <ClusterChart />
      <h2>Per data node: transactions per second</h2>
      <SmallMultiples />
    </div>
  );
}
