import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { useDocumentTheme } from '../../hooks/use-document-theme.js';
import { useSize } from '../../hooks/use-size.js';
import { moveCell, type GridCell } from '../../view-model/inside/grid-focus.js';
import { heatTable } from '../../view-model/inside/heat-colours.js';
import { heatLabels, LABEL_PX, MIN_LABEL_PX } from '../../view-model/inside/heat-labels.js';
import type { ThreadGrid } from '../../view-model/inside/thread-grid.js';
import type { ThreadLine } from '../../view-model/inside/threads.js';
import { linearPlace, placeBands } from '../../view-model/alerts/maintenance.js';
import { BandOverlay, useWindowBands } from '../charts/MaintenanceBands.js';

/** Room for the node and thread names left of the cells. */
export const LABEL_WIDTH = 112;

/** The cells' image: the rows in view, each its ring of cells in the colours of `table`, as of change `stamp`. */
interface Painted {
  grid: ThreadGrid;
  table: Uint32Array;
  keys: number[];
  stamp: number;
  image: ImageData;
}

/**
 * Writes the given ring slots (null: all) of every row into the image. The colour table maps CELL_NONE (no reading)
 * to 0, transparent, so each pixel is one lookup: a mount paints every cell in view before its code is optimised.
 */
function paintSlots({ grid, table, keys, image }: Painted, slots: readonly number[] | null): void {
  const pixels = new Uint32Array(image.data.buffer);
  const columns = grid.columns;
  for (let i = 0; i < keys.length; i++) {
    const ring = grid.ring(keys[i]!);
    const base = i * columns;
    if (!ring) pixels.fill(0, base, base + columns);
    else if (slots === null) for (let slot = 0; slot < columns; slot++) pixels[base + slot] = table[ring[slot]!]!;
    else for (const slot of slots) pixels[base + slot] = table[ring[slot]!]!;
  }
}

export type Cell = GridCell;

/** As tall as the rows can be to fit the view, between 4 px (144 × 20 threads scroll) and 18 px. */
export function rowHeight(rows: number, height: number): number {
  return Math.max(4, Math.min(18, Math.floor(height / Math.max(1, rows))));
}

function cssVar(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
}

/**
 * The heatmap in two layers over a viewport, drawing only the rows in view, so 2,880 threads × 900 seconds is a scroll
 * through ~11,000 px of which ~150 rows are drawn, never 2.6 M DOM cells. Below, the cells: a canvas of one pixel per
 * cell (the rows in view × the window's columns) scaled up by CSS without smoothing, written from an ImageData that
 * keeps the grid's ring layout, so a second's update paints the column or two it wrote and hands the compositor a
 * ~0.5 MB image, not a viewport-sized one. Above, the names on a canvas as narrow as they are, drawn again only
 * when they change (scroll, rows, size), never because a second passed (a canvas's first drawing costs with its
 * size: a viewport-sized one was ~50 ms of a mount), and the node borders and focus as elements. Pointer and arrow keys move
 * the focused cell, which the view describes in text.
 */
export function ThreadHeatmap({ grid, version, lines, focus, onFocus }: { grid: ThreadGrid; version: number; lines: readonly ThreadLine[]; focus: Cell | null; onFocus: (cell: Cell | null) => void }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const cellsRef = useRef<HTMLCanvasElement>(null);
  const labelsRef = useRef<HTMLCanvasElement>(null);
  const painted = useRef<Painted | null>(null);
  const size = useSize(scrollRef);
  const theme = useDocumentTheme();
  const table = useMemo(() => heatTable(theme), [theme]);
  const [scrollTop, setScrollTop] = useState(0);
  const rowH = rowHeight(lines.length, size.height);
  const plotWidth = Math.max(1, size.width - LABEL_WIDTH);
  const first = Math.floor(scrollTop / rowH);
  const last = Math.min(lines.length, Math.ceil((scrollTop + size.height) / rowH));
  const count = Math.max(0, last - first);
  // Maintenance windows as their edges only: a tint would change the heat colours the cells are read by.
  const { fromMs, toMs } = grid;
  const windows = useWindowBands(fromMs, toMs);
  const bands = useMemo(() => placeBands(windows, linearPlace(fromMs, toMs)), [windows, fromMs, toMs]);

  useEffect(() => {
    const canvas = cellsRef.current;
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx || count === 0) return;
    const columns = grid.columns;
    const keys = lines.slice(first, last).map((l) => l.key);
    let p = painted.current;
    if (!p || p.grid !== grid || p.table !== table || p.keys.length !== keys.length || p.keys.some((k, i) => k !== keys[i])) {
      canvas.width = columns;
      canvas.height = count;
      p = painted.current = { grid, table, keys, stamp: grid.changes, image: ctx.createImageData(columns, count) };
      paintSlots(p, null);
    } else if (p.stamp !== grid.changes) {
      // A second's update writes a column or two of the rings: only those are painted again.
      const slots = grid.changedSlots(p.stamp);
      p.stamp = grid.changes;
      paintSlots(p, slots);
    }
    // The image holds each row as the grid's ring: the oldest slot onwards goes left, the slots before it right.
    const split = grid.oldestSlot;
    ctx.putImageData(p.image, -split, 0, split, 0, columns - split, count);
    if (split > 0) ctx.putImageData(p.image, columns - split, 0, 0, 0, split, count);
  }, [grid, version, lines, first, last, count, table]);

  useEffect(() => {
    const canvas = labelsRef.current;
    if (!canvas || size.height === 0) return;
    const dpr = window.devicePixelRatio || 1;
    if (canvas.width !== Math.round(LABEL_WIDTH * dpr)) canvas.width = Math.round(LABEL_WIDTH * dpr);
    if (canvas.height !== Math.round(size.height * dpr)) canvas.height = Math.round(size.height * dpr);
    const ctx = canvas.getContext('2d');
    if (!ctx) return;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, LABEL_WIDTH, size.height);
    // Names at 11 px or more (heatLabels): each thread's when its row is tall enough, else each run of one kind's.
    const tones = { fg: cssVar('--fg'), muted: cssVar('--fg-muted') };
    ctx.textBaseline = 'middle';
    for (const label of heatLabels(lines, first, last, rowH, scrollTop)) {
      ctx.font = `${label.px}px system-ui, sans-serif`;
      ctx.fillStyle = tones[label.tone];
      ctx.fillText(label.text, label.x, label.y);
    }
  }, [lines, first, last, size.height, scrollTop, rowH, theme]);

  // The lines between nodes, in view.
  const borders: number[] = [];
  for (let i = Math.max(1, first); i < last; i++) if (lines[i - 1]!.nodeId !== lines[i]!.nodeId) borders.push(i * rowH - scrollTop);
  const cellW = plotWidth / grid.columns;

  const cellAt = (e: MouseEvent): Cell | null => {
    const rect = e.currentTarget.getBoundingClientRect();
    const x = e.clientX - rect.left - LABEL_WIDTH;
    const row = Math.floor((e.clientY - rect.top + scrollTop) / rowH);
    if (x < 0 || row < 0 || row >= lines.length) return null;
    return { row, column: Math.min(grid.columns - 1, Math.floor((x / plotWidth) * grid.columns)) };
  };

  const onKeyDown = (e: KeyboardEvent): void => {
    const at = focus ?? { row: 0, column: grid.columns - 1 };
    const page = Math.max(1, Math.floor(size.height / rowH) - 1);
    const moved = moveCell(at, e.key, lines.length, grid.columns, page);
    // The first key only shows where the focus starts.
    const cell = moved && !focus ? at : moved;
    if (!cell) return;
    e.preventDefault();
    onFocus(cell);
    const scroll = scrollRef.current;
    if (!scroll) return;
    const y = cell.row * rowH;
    if (y < scroll.scrollTop) scroll.scrollTop = y;
    else if (y + rowH > scroll.scrollTop + size.height) scroll.scrollTop = y + rowH - size.height;
  };

  const total = lines.length * rowH;
  return (
    <div
      ref={scrollRef}
      className="heatmap-scroll"
      data-testid="thread-heatmap"
      data-rows={lines.length}
      data-columns={grid.columns}
      data-step-ms={grid.stepMs}
      data-version={version}
      data-row-px={rowH}
      data-thread-labels={Math.min(LABEL_PX, rowH) >= MIN_LABEL_PX ? 'each' : 'by kind'}
      tabIndex={0}
      role="application"
      aria-roledescription="heatmap"
      aria-label={`busy share of ${lines.length} threads over time, one column per ${grid.stepMs / 1000} s: arrow keys move between cells, the cell's figures are read below`}
      onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
      onMouseMove={(e) => onFocus(cellAt(e))}
      onKeyDown={onKeyDown}
    >
      <div className="heatmap-layers" style={{ width: size.width, height: size.height }}>
        <canvas ref={cellsRef} className="heatmap-cells" style={{ left: LABEL_WIDTH, top: first * rowH - scrollTop, width: plotWidth, height: count * rowH }} />
        <canvas ref={labelsRef} className="heatmap-labels" style={{ width: LABEL_WIDTH, height: size.height }} />
        <div className="heatmap-bands" style={{ left: LABEL_WIDTH, width: plotWidth }}>
          <BandOverlay bands={bands} />
        </div>
        {borders.map((y) => (
          <div key={y} className="heatmap-node-border" style={{ top: y }} />
        ))}
        {focus && focus.row >= first && focus.row < last && (
          <div
            className="heatmap-focus"
            data-testid="heatmap-focus"
            style={{ left: LABEL_WIDTH + focus.column * cellW - 1, top: focus.row * rowH - scrollTop - 1, width: Math.max(cellW, 2) + 2, height: rowH + 2 }}
          />
        )}
      </div>
      <div style={{ height: Math.max(0, total - size.height) }} />
    </div>
  );
}
