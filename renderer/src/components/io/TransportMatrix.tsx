import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { measureAfterLayout } from '../../hooks/measure-after-layout.js';
import { moveCell, type GridCell } from '../../view-model/inside/grid-focus.js';
import { cellKey, cellTone, formatBytesPerSec, linkText, type TransportMatrix as Matrix } from '../../view-model/inside/io-figures.js';

const CELL_W = 84;
const ROW_H = 22;
const HEAD_W = 64;
const HEAD_H = 24;

function cellAt(e: MouseEvent): GridCell | null {
  const el = (e.target as HTMLElement).closest<HTMLElement>('[data-r]');
  return el ? { row: Number(el.dataset.r), column: Number(el.dataset.c) } : null;
}

/**
 * The node×node matrix of bytes/s each data node sends: only the cells in view are in the page (144 data nodes
 * with their management and API nodes are ~22,000 cells), with the row and column names kept in sight. Pointer and
 * arrow keys move a focused cell whose link is described in words under the matrix.
 */
export function TransportMatrix({ m }: { m: Matrix }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const [focus, setFocus] = useState<GridCell | null>(null);
  const rows = useVirtualizer({ count: m.rows.length, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_H, paddingStart: HEAD_H, scrollPaddingStart: HEAD_H, overscan: 4, ...measureAfterLayout });
  const columns = useVirtualizer({ horizontal: true, count: m.columns.length, getScrollElement: () => scrollRef.current, estimateSize: () => CELL_W, paddingStart: HEAD_W, scrollPaddingStart: HEAD_W, overscan: 2, ...measureAfterLayout });
  const shown = focus && focus.row < m.rows.length && focus.column < m.columns.length ? focus : null;

  const onKeyDown = (e: KeyboardEvent): void => {
    const at = shown ?? { row: 0, column: 0 };
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? ROW_H) / ROW_H) - 2);
    const moved = moveCell(at, e.key, m.rows.length, m.columns.length, page);
    // The first key only shows where the focus starts.
    const cell = moved && !shown ? at : moved;
    if (!cell) return;
    e.preventDefault();
    setFocus(cell);
    rows.scrollToIndex(cell.row);
    columns.scrollToIndex(cell.column);
  };

  const virtualRows = rows.getVirtualItems();
  const virtualColumns = columns.getVirtualItems();
  const from = shown ? m.rows[shown.row] : undefined;
  const to = shown ? m.columns[shown.column] : undefined;
  return (
    <>
      <div
        ref={scrollRef}
        className="io-matrix-scroll"
        data-testid="io-matrix"
        data-rows={m.rows.length}
        data-columns={m.columns.length}
        tabIndex={0}
        role="application"
        aria-roledescription="matrix"
        aria-label={`bytes per second ${m.rows.length} data nodes send to ${m.columns.length} nodes: arrow keys move between cells, the link's figures are read below`}
        onMouseMove={(e) => {
          const cell = cellAt(e);
          if (cell) setFocus(cell);
        }}
        onKeyDown={onKeyDown}
      >
        <div className="io-matrix" style={{ width: columns.getTotalSize(), height: rows.getTotalSize() }}>
          <div className="io-mx-head" style={{ height: HEAD_H }}>
            <div className="io-mx-corner" style={{ width: HEAD_W, height: HEAD_H }}>
              from \ to
            </div>
            {virtualColumns.map((c) => {
              const col = m.columns[c.index]!;
              return (
                <div key={c.key} className="io-mx-label" style={{ left: c.start, top: 0, width: c.size, height: HEAD_H }} title={col.type ?? ''}>
                  {col.nodeId}
                  {col.type && col.type !== 'NDB' && <span className="muted"> {col.type.toLowerCase()}</span>}
                </div>
              );
            })}
          </div>
          <div className="io-mx-side" style={{ width: HEAD_W, height: rows.getTotalSize() - HEAD_H }}>
            {virtualRows.map((r) => (
              <div key={r.key} className="io-mx-label" style={{ top: r.start - HEAD_H, width: HEAD_W, height: r.size }}>
                {m.rows[r.index]}
              </div>
            ))}
          </div>
          {virtualRows.map((r) => {
            const rowId = m.rows[r.index]!;
            return virtualColumns.map((c) => {
              const colId = m.columns[c.index]!.nodeId;
              const cell = m.cells.get(cellKey(rowId, colId));
              const focused = shown?.row === r.index && shown.column === c.index;
              const place = { left: c.start, top: r.start, width: c.size, height: r.size };
              const common = { 'data-r': r.index, 'data-c': c.index, style: place };
              const ring = focused ? ' io-focus' : '';
              if (!cell) return <div key={`${r.key}:${c.key}`} {...common} className={`io-mx-cell muted${ring}`}>{colId === rowId ? '·' : ''}</div>;
              if (cell.status !== 'CONNECTED') return <div key={`${r.key}:${c.key}`} {...common} className={`io-mx-cell muted${ring}`}>{cell.status.toLowerCase()}</div>;
              const tone = cellTone(cell);
              return (
                <div key={`${r.key}:${c.key}`} {...common} data-testid="io-cell" data-from={rowId} data-to={colId} data-tone={tone} className={`io-mx-cell io-cell io-${tone}-cell${ring}`}>
                  {formatBytesPerSec(cell.sentPerSec)}
                </div>
              );
            });
          })}
        </div>
      </div>
      <p className="muted io-link-detail" data-testid="io-link-detail" aria-live="polite">
        {from !== undefined && to ? linkText(from, to, m.cells.get(cellKey(from, to.nodeId))) : 'Point at a cell, or focus the matrix and use the arrow keys, for that link in detail.'}
      </p>
    </>
  );
}
