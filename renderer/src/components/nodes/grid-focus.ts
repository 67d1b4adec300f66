import { useMemo, useRef, useState, type FocusEvent, type KeyboardEvent } from 'react';
import type { GridRow } from '../../view-model/nodes/grid-rows.js';

/** The attribute every card and tile of the grid carries (written out in NodeCard and NodeTile): its node id. */
export const NODE_ITEM = 'data-node-item';

/** The id of the words every grid item is described by: how the keys move between nodes, shown while one has the focus. */
export const GRID_KEYS_HINT = 'grid-keys-hint';

/** Node ids in reading order, left to right then down: what the arrows, Home and End step through. */
export function readingOrder(rows: readonly GridRow[]): number[] {
  return rows.flatMap((r) => (r.kind === 'items' ? r.nodeIds : r.kind === 'groups' ? r.sections.flatMap((s) => s.nodeIds) : []));
}

/** Moves the focus into the grid, onto its one tab stop (the skip link uses it). */
export function focusGrid(): void {
  document.querySelector<HTMLElement>(`[data-testid="node-grid"] [${NODE_ITEM}][tabindex="0"]`)?.focus();
}

/** The mounted item nearest below (or above) `from`: the next row's item closest to it across. */
function vertical(root: HTMLElement, from: HTMLElement, down: boolean): number | undefined {
  const at = from.getBoundingClientRect();
  const mid = at.left + at.width / 2;
  let best: { id: number; dy: number; dx: number } | undefined;
  for (const el of root.querySelectorAll<HTMLElement>(`[${NODE_ITEM}]`)) {
    const r = el.getBoundingClientRect();
    const dy = down ? r.top - at.bottom : at.top - r.bottom;
    if (dy < -1) continue;
    const dx = Math.abs(r.left + r.width / 2 - mid);
    if (!best || dy < best.dy - 1 || (Math.abs(dy - best.dy) <= 1 && dx < best.dx)) best = { id: Number(el.getAttribute(NODE_ITEM)), dy, dx };
  }
  return best?.id;
}

/**
 * One tab stop for the whole grid (roving tabindex): the node last focused, else the first, is the only item Tab
 * reaches; the arrow keys move between nodes, Home and End to the first and last. Rows off screen are not in the
 * DOM, so moving to one scrolls its row in first.
 */
export function useGridFocus(rows: readonly GridRow[], scrollToRow: (index: number) => void) {
  const root = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState<number | null>(null);
  const order = useMemo(() => readingOrder(rows), [rows]);
  const current = active !== null && order.includes(active) ? active : (order[0] ?? null);

  const focusNode = (id: number): void => {
    setActive(id);
    const find = () => root.current?.querySelector<HTMLElement>(`[${NODE_ITEM}="${id}"]`);
    const el = find();
    if (el) return el.focus();
    scrollToRow(rows.findIndex((r) => readingOrder([r]).includes(id)));
    let frames = 10;
    const retry = (): void => {
      const mounted = find();
      if (mounted) mounted.focus();
      else if (--frames > 0) requestAnimationFrame(retry);
    };
    requestAnimationFrame(retry);
  };

  const onFocus = (e: FocusEvent<HTMLDivElement>): void => {
    const item = e.target.closest(`[${NODE_ITEM}]`);
    if (item) setActive(Number(item.getAttribute(NODE_ITEM)));
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>): void => {
    const item = e.target as HTMLElement;
    // Keys pressed on a card's buttons are the buttons'.
    if (!item.hasAttribute(NODE_ITEM) || !root.current) return;
    const i = order.indexOf(Number(item.getAttribute(NODE_ITEM)));
    const next = {
      ArrowRight: () => order[i + 1],
      ArrowLeft: () => order[i - 1],
      Home: () => order[0],
      End: () => order.at(-1),
      ArrowDown: () => vertical(root.current as HTMLElement, item, true),
      ArrowUp: () => vertical(root.current as HTMLElement, item, false),
    }[e.key];
    if (!next) return;
    e.preventDefault();
    const id = next();
    if (id !== undefined) focusNode(id);
  };

  return { root, current, onFocus, onKeyDown };
}
