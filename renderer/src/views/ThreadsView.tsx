import { useEffect, useMemo, useRef, useState } from 'react';
import type { ThreadPoint } from '../contract.js';
import { ThreadHeatmap, LABEL_WIDTH, type Cell } from '../components/threads/ThreadHeatmap.js';
import { KindStrip } from '../components/threads/KindStrip.js';
import { ThreadsHint } from '../components/threads/ThreadsHint.js';
import { ReleaseNotes } from '../components/inside/ReleaseNotes.js';
import { useDocumentTheme } from '../hooks/use-document-theme.js';
import { useSize } from '../hooks/use-size.js';
import { useThreadGrid } from '../hooks/use-thread-grid.js';
import { useApp, useAppContext } from '../store/use-app.js';
import { WINDOWS, type WindowName } from '../store/ui-slice.js';
import { formatClock } from '../view-model/format.js';
import { heatGradient } from '../view-model/inside/heat-colours.js';
import { arrangeLines, formatPercent, kindsOf, latestThreads, sameThreads, threadLines, topThreads, type ThreadId, type ThreadLine, type ThreadSort } from '../view-model/inside/threads.js';
import './threads.css';

function Legend() {
  const theme = useDocumentTheme();
  return (
    <span className="heat-legend" aria-label="colour: busy share, exec + send + spin, 0 to 100 %">
      <span className="muted">busy</span>
      <span className="heat-bar" style={{ background: heatGradient(theme) }} />
      <span className="heat-ticks">
        {[0, 25, 50, 75, 100].map((p) => (
          <span key={p}>{p} %</span>
        ))}
      </span>
    </span>
  );
}

function TopTen() {
  const nodes = useApp((s) => s.shown.ndbinfoNodes);
  const top = useMemo(() => topThreads(nodes.values(), 10), [nodes]);
  return (
    <section className="top-threads" aria-labelledby="top-threads-title">
      <h3 id="top-threads-title">Hottest threads now</h3>
      {top.length === 0 && <p className="muted">no current reading</p>}
      <ol data-testid="thread-top-ten">
        {top.map((t) => (
          <li key={`${t.nodeId}:${t.thrNo}`} data-node={t.nodeId} data-busy={t.busy}>
            <span>
              node {t.nodeId} {t.label}
            </span>
            <b>{formatPercent(t.busy)}</b>
          </li>
        ))}
      </ol>
    </section>
  );
}

function cellText(line: ThreadLine, at: number, point: ThreadPoint | null | undefined): string {
  const head = `node ${line.nodeId} ${line.label} at ${formatClock(point?.at ?? at)}`;
  if (point === undefined) return `${head}: …`;
  if (point === null) return `${head}: no reading`;
  const p = formatPercent;
  return `${head}: busy ${p(point.busy)} — OS user ${p(point.osUser)}, system ${p(point.osSystem)}, idle ${p(point.osIdle)} · exec ${p(point.exec)}, send ${p(point.send)}, buffer full ${p(point.bufferFull)}, sleeping ${p(point.sleep)}${point.spin > 0 ? `, spinning ${p(point.spin)}` : ''}`;
}

/** The focused cell's two splits (asked for when the focus rests on it), in text for every reader. */
function CellDetail({ line, fromMs, toMs }: { line: ThreadLine | null; fromMs: number; toMs: number }) {
  const { api } = useAppContext();
  const clusterId = useApp((s) => s.shown.clusterId);
  const [point, setPoint] = useState<{ key: string; value: ThreadPoint | null } | null>(null);
  const key = line ? `${line.key}:${fromMs}` : '';
  useEffect(() => {
    if (!line || clusterId === null) return;
    let current = true;
    const id = setTimeout(() => {
      void api
        .getThreadPoint({ clusterId, nodeId: line.nodeId, thrNo: line.thrNo, fromMs, toMs })
        .then((value) => current && setPoint({ key, value }))
        .catch(() => undefined);
    }, 80);
    return () => {
      current = false;
      clearTimeout(id);
    };
  }, [api, clusterId, line, fromMs, toMs, key]);
  return (
    <p className="cell-detail" data-testid="thread-cell" aria-live="polite">
      {line ? cellText(line, fromMs, point?.key === key ? point.value : undefined) : 'Point at a cell, or focus the heatmap and use the arrow keys, for its thread and second in detail.'}
    </p>
  );
}

function Heatmap({ lines, sort, kind }: { lines: readonly ThreadLine[]; sort: ThreadSort; kind: string | null }) {
  const windowMs = useApp((s) => WINDOWS[s.ui.window]);
  const stretch = useApp((s) => s.shown.ndbinfo?.selfLoad?.stretch ?? 1);
  const boxRef = useRef<HTMLDivElement>(null);
  const { width } = useSize(boxRef);
  const columns = Math.max(0, Math.floor(width - LABEL_WIDTH - 16));
  // A new object whenever a cell changed: what is derived from the cells is derived again then, and only then.
  const cells = useThreadGrid(windowMs, columns, true);
  const { grid, version } = cells;
  const [focus, setFocus] = useState<Cell | null>(null);
  // A new window or width has other columns: a focused cell would point at another time.
  useEffect(() => setFocus(null), [grid]);
  // Thread rows come from the grid (threads seen in the window) and the latest figures (threads just started); they
  // change only when threads come or go, but sorted by hottest their order follows every second's cells.
  const threadsVersion = grid?.threadsVersion ?? -1;
  const rows = useMemo(() => {
    if (!grid || threadsVersion < 0) return [];
    const all = threadLines(grid.threads());
    const known = new Set(all.map((l) => l.key));
    return [...all, ...lines.filter((l) => !known.has(l.key))];
  }, [grid, threadsVersion, lines]);
  const cellsForOrder = sort === 'hottest' ? cells : null;
  const shown = useMemo(() => arrangeLines(rows, sort, kind, (key) => cellsForOrder?.grid?.mean(key) ?? 0), [rows, sort, kind, cellsForOrder]);
  const line = focus ? (shown[focus.row] ?? null) : null;
  const cellFrom = grid && focus ? grid.fromMs + focus.column * grid.stepMs : 0;
  return (
    <div className="heatmap-box" ref={boxRef}>
      {grid && shown.length > 0 ? (
        <>
          <ThreadHeatmap grid={grid} version={version} lines={shown} focus={focus && line ? focus : null} onFocus={setFocus} />
          <div className="heatmap-axis" style={{ paddingLeft: LABEL_WIDTH }}>
            <span>{formatClock(grid.fromMs)}</span>
            <span className="muted">
              one column per {grid.stepMs / 1000} s{grid.stepMs > 1000 ? ' (its busiest second)' : ''}
              {stretch > 1 && `; the SQL source reads every ${stretch} s to keep its own load in budget, so some seconds have no reading`}
            </span>
            <span>{formatClock(grid.toMs - 1000)}</span>
          </div>
          <CellDetail line={line} fromMs={cellFrom} toMs={cellFrom + (grid?.stepMs ?? 1000)} />
        </>
      ) : (
        <p className="empty">waiting for the first thread readings…</p>
      )}
    </div>
  );
}

/**
 * View 9: every data node's block threads over the window as a heatmap (ndbinfo cpustat through the SQL source), the
 * per-kind means of each node above it and the ten hottest threads beside it. Without an SQL source, one line that
 * says how to get one.
 */
export function ThreadsView() {
  const store = useAppContext().store;
  const source = useApp((s) => s.shown.ndbinfo);
  const nodes = useApp((s) => s.shown.ndbinfoNodes);
  const windowName = useApp((s) => s.ui.window);
  const [sort, setSort] = useState<ThreadSort>('node');
  const [kind, setKind] = useState<string | null>(null);
  // Every push brings new figures, but the threads themselves (nodes, numbers, names) seldom change: their rows are
  // made again only when they did, so what depends on the rows alone is not derived again every second.
  const kept = useRef<{ threads: ThreadId[]; lines: ThreadLine[] } | null>(null);
  if (!kept.current || !sameThreads(kept.current.threads, nodes.values())) {
    const threads = latestThreads(nodes.values());
    kept.current = { threads, lines: threadLines(threads) };
  }
  const latest = kept.current.lines;
  const kinds = useMemo(() => kindsOf(latest), [latest]);
  if (!source) return <ThreadsHint />;
  return (
    <section className="threads-view" data-testid="threads-view">
      <div className="toolbar">
        <label>
          window{' '}
          <select value={windowName} onChange={(e) => store.setUi({ window: e.target.value as WindowName })} data-testid="threads-window">
            {Object.keys(WINDOWS).map((w) => (
              <option key={w}>{w}</option>
            ))}
          </select>
        </label>
        <label>
          sort{' '}
          <select value={sort} onChange={(e) => setSort(e.target.value as ThreadSort)} data-testid="threads-sort">
            <option value="node">by node</option>
            <option value="hottest">hottest first</option>
          </select>
        </label>
        <label>
          kind{' '}
          <select value={kind ?? ''} onChange={(e) => setKind(e.target.value || null)} data-testid="threads-kind">
            <option value="">all kinds</option>
            {kinds.map((k) => (
              <option key={k} value={k}>
                {k}
              </option>
            ))}
          </select>
        </label>
        <Legend />
        {source.source.status !== 'up' && (
          <span className="tone-warn" data-testid="threads-source">
            SQL source {source.source.status}: {latest.length > 0 ? 'figures as last seen' : 'no thread readings yet'}
          </span>
        )}
      </div>
      <ReleaseNotes keys={['host-cpu']} />
      <KindStrip />
      <div className="threads-main">
        <Heatmap lines={latest} sort={sort} kind={kind} />
        <TopTen />
      </div>
    </section>
  );
}
