import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { CartesianGrid, Curve, Line, LineChart, ReferenceArea, ReferenceLine, Tooltip, XAxis, YAxis, type BaseTickContentProps, type LineDrawShapeProps } from 'recharts';
import { useShallow } from 'zustand/react/shallow';
import { chartMaxPoints, decimationBucketMs, type Metric } from '../contract.js';
import { AfterFirstPaint } from '../components/AfterFirstPaint.js';
import { ChartLegend } from '../components/charts/ChartLegend.js';
import { useRunControls } from '../components/header/RunControls.js';
import { SmallMultiple } from '../components/charts/SmallMultiple.js';
import { useWindowBands } from '../components/charts/MaintenanceBands.js';
import { download, downloadUrl } from '../download.js';
import { afterNextPaint } from '../hooks/after-next-paint.js';
import { useHistoryQuery } from '../hooks/use-history-query.js';
import { useGrowingLimit } from '../hooks/use-growing-limit.js';
import { useSize } from '../hooks/use-size.js';
import { useFiguresAsOf } from '../hooks/use-figures-as-of.js';
import { useApp, useAppContext } from '../store/use-app.js';
import { WINDOWS } from '../store/ui-slice.js';
import { axisWidth, formatAxisRate, formatClock, formatRate } from '../view-model/format.js';
import { lastValues, nextPlotFrame, toRows, type ChartRow, type PlotFrame } from '../view-model/charts/chart-rows.js';
import { placeBands, samplePlace } from '../view-model/alerts/maintenance.js';
import { runLines } from '../view-model/runs.js';
import { axisStart, centredTimeTicks } from '../view-model/charts/time-ticks.js';
import { placeLabels, type PlacedMark } from '../view-model/charts/label-lanes.js';
import { valueTicks } from '../view-model/charts/value-ticks.js';

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
const NO_VALUES: readonly number[] = [];
const NO_TIMES: readonly number[] = [];

/**
 * Commits equal transactions whenever nothing aborts, so one line would hide the other: commits are drawn dashed over
 * the solid transactions line, and the legend can hide either.
 */
const DASHED: ReadonlySet<string> = new Set(['commits']);

// Every prop handed to recharts keeps its identity from one render to the next: recharts copies each changed
// setting into its own store and recomputes every line from it, so a new margin object or formatter function per
// render cost as much as new data.
const MARGIN = { top: 16, right: 24, bottom: 8, left: 8 };
const TOOLTIP_STYLE = { background: 'var(--bg-raised)', border: '1px solid var(--border)' };
const tooltipLabel = (at: unknown): string => `sampled ${formatClock(Number(at))}`;
/** With the source lost, every sample is an old one: the hover says where the figures stop. */
const oldTooltipLabel = (asOf: number) => (at: unknown): string => `${tooltipLabel(at)} · last seen ${formatClock(asOf)}, nothing newer`;
const tooltipValue = (v: unknown): string => `${formatRate(Number(v))}/s`;

/**
 * recharts' own curve, without the path ref its default shape gets: Line measures that path's length on every render
 * for its entrance animation (off here), a forced layout of each 1,900-point path at each update.
 */
function StillCurve({ pathRef: _ref, animationElapsedTime: _t, isAnimating: _a, isEntrance: _e, visibleLength: _l, connectNulls, ...curve }: LineDrawShapeProps) {
  return <Curve {...curve} connectNulls={connectNulls ?? false} />;
}

/** Where a tick label's text sits against its anchor point, as recharts' own Text places it. */
const TICK_DY = { start: '0.71em', middle: '0.355em', end: '0' } as const;

/**
 * A tick label as one plain SVG text: recharts' default (its Text) measures each label's words in the DOM at every
 * render, for wrapping a tick label never needs — the largest part of the plot's mount.
 */
function PlainTick({ x, y, textAnchor, verticalAnchor, className, fill, payload, tickFormatter, index }: BaseTickContentProps) {
  const value: unknown = payload.value;
  return (
    <text x={x} y={y} dy={TICK_DY[verticalAnchor]} textAnchor={textAnchor} className={className} fill={fill}>
      {tickFormatter ? tickFormatter(value, index) : String(value)}
    </text>
  );
}

/** A maintenance window's band, with a hook for tests and its label as the title on hover. */
function Band({ x, y, width, height, label }: { x?: number; y?: number; width?: number; height?: number; label: string }) {
  return (
    <rect data-testid="maintenance-band" data-label={label} x={x} y={y} width={width} height={height} fill="var(--maint)" fillOpacity={0.18} stroke="var(--maint)" strokeOpacity={0.6}>
      <title>{label}</title>
    </rect>
  );
}

const LANE_PX = 15;

/** A mark's label in its lane (from `placeLabels`), counted from the top or the bottom of the plot; none without a lane. */
function laneLabel(mark: PlacedMark, edge: 'top' | 'bottom', fill: string) {
  if (mark.lane === null) return undefined;
  const lane = mark.lane;
  return function LaneLabel({ viewBox }: { viewBox?: { x?: number; y?: number; height?: number } }) {
    const x = (viewBox?.x ?? 0) + (mark.anchor === 'start' ? 4 : -4);
    const top = viewBox?.y ?? 0;
    const y = edge === 'top' ? top + 14 + lane * LANE_PX : top + (viewBox?.height ?? 0) - 6 - lane * LANE_PX;
    return (
      <text x={x} y={y} textAnchor={mark.anchor} fill={fill} fontSize={12} data-testid="mark-label" data-lane={lane}>
        {mark.label}
      </text>
    );
  };
}

interface PlotProps {
  rows: readonly ChartRow[];
  width: number;
  height: number;
  from: number;
  until: number;
  hidden: ReadonlySet<string>;
  /** Called once the chart has been painted with its rows. */
  onDrawn(): void;
}

const NO_ROWS: ChartRow[] = [];

/** Mount stages of the plot, one painted frame apart: axes; grid and tooltip; lines; rows. */
const MOUNT_STAGES = 4;

/**
 * The chart itself, memoised: it re-renders only when what it draws changed (new rows, window, size, marks). It
 * mounts in stages, a painted frame apart, and gets its rows last: recharts' mount registers axes and lines one
 * effect at a time, each recomputing what depends on the data, so a mount with an hour of rows was one task of
 * several hundred ms; empty, then filled, it was two of 50–90 ms; in four stages each is a short task.
 */
const Plot = memo(function Plot({ rows, width, height, from, until, hidden, onDrawn }: PlotProps) {
  const stage = useGrowingLimit(MOUNT_STAGES, 1);
  const filled = stage >= MOUNT_STAGES;
  useEffect(() => (filled ? afterNextPaint(onDrawn) : undefined), [filled, onDrawn]);
  const marks = useApp((s) => s.ui.phaseMarks);
  // Only the collapse alerts: any other raised or resolved (dozens in a rolling restart) leaves the plot alone.
  const collapses = useApp(useShallow((s) => s.live.alerts.filter((a) => a.kind === 'throughput-collapse')));
  const runs = useApp((s) => s.live.runs);
  const runMarks = useMemo(() => runLines(runs), [runs]);
  const bands = useWindowBands(from, until);
  const asOf = useFiguresAsOf();
  const label = useMemo(() => (asOf === null ? tooltipLabel : oldTooltipLabel(asOf)), [asOf]);
  const domain = useMemo(() => [from, until], [from, until]);
  // Explicit round ticks: recharts' own put them where the data is, on top of each other on a fresh start.
  const ticks = useMemo(() => centredTimeTicks(from, until, width - PLOT_MARGIN, MARGIN.right), [from, until, width]);
  // Phase marks along the top, run starts and phases along the bottom, each in lanes so no two labels overlap.
  const placedPhases = useMemo(() => placeLabels(marks, from, until, width - PLOT_MARGIN), [marks, from, until, width]);
  const placedRuns = useMemo(() => placeLabels(runMarks, from, until, width - PLOT_MARGIN), [runMarks, from, until, width]);
  // Round ticks up to the highest value, and the axis as wide as their widest label.
  const y = useMemo(() => {
    let max = 0;
    for (const r of rows) for (const m of TOTAL_METRICS) max = Math.max(max, r[m] ?? 0);
    const ticks = valueTicks(max);
    return { ticks, domain: [0, ticks[ticks.length - 1] ?? 1], width: axisWidth(ticks.map(formatAxisRate)) };
  }, [rows]);
  return (
    <LineChart width={width} height={height} data={filled ? (rows as ChartRow[]) : NO_ROWS} margin={MARGIN}>
      {stage >= 2 && <CartesianGrid stroke="var(--grid)" strokeDasharray="3 3" />}
      {/* A linear scale over epoch milliseconds places every point where a time scale would, at less cost per point.
          Both axes get their ticks as given (interval 0: none measured to drop overlapping ones, these are spaced not
          to overlap; niceTicks none: no "nice" values worked out in decimal arithmetic per update), drawn plainly. */}
      <XAxis dataKey="at" type="number" scale="linear" domain={domain} ticks={ticks} interval={0} niceTicks="none" tick={PlainTick} allowDataOverflow tickFormatter={formatClock} stroke="var(--fg-muted)" />
      <YAxis tickFormatter={formatAxisRate} stroke="var(--fg-muted)" width={y.width} domain={y.domain} ticks={y.ticks} niceTicks="none" interval={0} tick={PlainTick} />
      {/* The unit once, on the value: "commits  12.3k/s". */}
      {stage >= 2 && <Tooltip labelFormatter={label} formatter={tooltipValue} contentStyle={TOOLTIP_STYLE} />}
      {stage >= 3 &&
        TOTAL_METRICS.map((m) => (
          <Line
            key={m}
            dataKey={m}
            name={m}
            hide={hidden.has(m)}
            stroke={COLOURS[m]}
            strokeDasharray={DASHED.has(m) ? '8 6' : undefined}
            dot={false}
            shape={StillCurve}
            strokeWidth={DASHED.has(m) ? 2.5 : 2}
            isAnimationActive={false}
            connectNulls={false}
          />
        ))}
      {/* A window's reason written from the band's edge into the plot: centred, a long one ran past the plot's end. */}
      {bands.map((b) => (
        <ReferenceArea
          key={b.id}
          x1={b.x1}
          x2={b.x2}
          ifOverflow="hidden"
          shape={(props: { x?: number; y?: number; width?: number; height?: number }) => <Band {...props} label={b.label} />}
          label={{ value: b.label, fill: 'var(--maint)', position: b.x2 >= until ? 'insideTopRight' : 'insideTopLeft' }}
        />
      ))}
      {placedPhases.map((mark) => (
        <ReferenceLine key={mark.at} x={mark.at} stroke="var(--fg)" strokeDasharray="6 3" label={laneLabel(mark, 'top', 'var(--fg)')} />
      ))}
      {placedRuns.map((m) => (
        <ReferenceLine key={`${m.at}${m.label}`} x={m.at} stroke="var(--busy)" strokeDasharray="2 4" label={laneLabel(m, 'bottom', 'var(--busy)')} />
      ))}
      {collapses.map((a) => (
        <ReferenceLine key={a.id} x={a.at} stroke="var(--bad)" strokeWidth={2} label={{ value: 'collapse', fill: 'var(--bad)', position: 'insideTopRight' }} />
      ))}
    </LineChart>
  );
});

function ClusterChart({ onDrawn }: { onDrawn(): void }) {
  const ref = useRef<HTMLDivElement>(null);
  // The box's height comes from the screen (CSS): taller on a large screen.
  const { width, height } = useSize(ref);
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  const asOf = useFiguresAsOf();
  const collapses = useApp((s) => s.live.alerts.filter((a) => a.kind === 'throughput-collapse').length);
  // A min/max pair per few pixels of the plot (as much as can be seen, and no more for recharts to place), asked
  // again each pixel of time so the legend's current values stay current.
  const plotWidth = width - PLOT_MARGIN;
  const maxPoints = chartMaxPoints(plotWidth);
  const { history, until, windowMs } = useHistoryQuery(TOTAL_METRICS, maxPoints, { steps: plotWidth });
  const previous = useRef<readonly ChartRow[]>([]);
  const rows = useMemo(() => (previous.current = toRows(history, TOTAL_METRICS, previous.current)), [history]);
  const current = useMemo(() => lastValues(rows, TOTAL_METRICS), [rows]);
  const from = axisStart(rows[0]?.at ?? undefined, until, windowMs);
  // The plot redraws only when its decimated picture changed: once per bucket over an hour, not every answer.
  const shown = useRef<PlotFrame | null>(null);
  const bucketMs = decimationBucketMs(windowMs, maxPoints);
  const frame = useMemo(() => (shown.current = nextPlotFrame(shown.current, { rows, from, until, windowMs, bucketMs })), [rows, from, until, windowMs, bucketMs]);
  // Nothing to draw: what waits for the chart need not.
  const empty = history !== null && (rows.length === 0 || width <= 0 || height <= 0);
  useEffect(() => (empty ? onDrawn() : undefined), [empty, onDrawn]);
  const toggle = (key: string) => setHidden((prev) => (prev.has(key) ? new Set([...prev].filter((k) => k !== key)) : new Set([...prev, key])));
  const entries = TOTAL_METRICS.map((m) => ({ key: m, label: m, colour: COLOURS[m], dashed: DASHED.has(m), current: current.get(m) ?? null, hidden: hidden.has(m) }));
  return (
    <>
      <ChartLegend entries={entries} onToggle={toggle} asOf={asOf} />
      <div
        ref={ref}
        className="chart-box"
        data-testid="throughput-chart"
        data-points={frame.rows.length}
        data-window={frame.windowMs}
        data-from={frame.from}
        data-until={frame.until}
        data-collapses={collapses}
      >
        {/* Drawn a frame after the view: the switch paints headings, legend and toolbar at once. */}
        {width > 0 && height > 0 && frame.rows.length > 0 && (
          <AfterFirstPaint>
            <Plot rows={frame.rows} width={width} height={height} from={frame.from} until={frame.until} hidden={hidden} onDrawn={onDrawn} />
          </AfterFirstPaint>
        )}
      </div>
    </>
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
  const { history, windowMs } = useHistoryQuery(['transactions'], chartMaxPoints(SMALL_WIDTH), { nodeIds, steps: SMALL_WIDTH });
  // The window the drawn series cover (the answer's), not the one just picked.
  const windowLabel = Object.entries(WINDOWS).find(([, ms]) => ms === windowMs)?.[0] ?? '';
  // One array per node per answer, so each memoised small multiple redraws only when an answer came.
  const byNode = useMemo(() => new Map(history?.series.filter((s) => s.nodeId !== null).map((s) => [s.nodeId, s.values.map((v) => v ?? NaN)])), [history]);
  const at = history?.at ?? NO_TIMES;
  // The sparklines spread their samples evenly, so a window is placed by the samples it covers.
  const windows = useWindowBands(at[0], at.at(-1));
  const bands = useMemo(() => placeBands(windows, samplePlace(at)), [windows, at]);
  return (
    <div className="small-multiples" data-testid="node-throughput">
      {nodeIds.map((id) => (
        <SmallMultiple key={id} nodeId={id} values={byNode.get(id) ?? NO_VALUES} at={at} bands={bands} stale={stale.has(id)} width={SMALL_WIDTH} height={SMALL_HEIGHT} windowLabel={windowLabel} />
      ))}
    </div>
  );
}

function Toolbar() {
  const { api, store } = useAppContext();
  const clusterId = useApp((s) => s.shown.clusterId);
  const [label, setLabel] = useState('');
  const exportAs = async (format: 'csv' | 'json') => {
    if (clusterId === null) return;
    // What the chart shows: its time window (to the newest sample) and the phase marks set on it.
    const { ui, shown } = store.getState();
    const toMs = shown.historyUntil > 0 ? shown.historyUntil : Date.now();
    const range = { fromMs: Math.max(0, toMs - WINDOWS[ui.window]), toMs, marks: [...ui.phaseMarks] };
    // Serve mode: an export can be far more than a WebSocket client may have buffered; the server streams it
    // over HTTP (the page's token cookie authorises the request).
    if (window.ndbtop === undefined) {
      const query = { clusterId, format, fromMs: String(range.fromMs), toMs: String(range.toMs), marks: JSON.stringify(range.marks) };
      return void downloadUrl(`api/export?${new URLSearchParams(query).toString()}`);
    }
    try {
      const file = await api.exportHistory({ clusterId, format, ...range });
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
      <input aria-label="benchmark phase label" placeholder="benchmark phase label" size={28} value={label} onChange={(e) => setLabel(e.target.value)} />
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
  // The small multiples (144 canvases) mount once the main chart has been painted, each in tasks of their own.
  const [chartDrawn, setChartDrawn] = useState(false);
  const onChartDrawn = useCallback(() => setChartDrawn(true), []);
  return (
    <div className="view throughput-view">
      <Toolbar />
      <h2>
        Cluster throughput (per second)
        <Coverage />
      </h2>
      <ClusterChart onDrawn={onChartDrawn} />
      <h2>Per data node: transactions per second</h2>
      {chartDrawn && <SmallMultiples />}
    </div>
  );
}
