import type { ThreadLine } from './threads.js';

/** The size of a node's name, and of a thread's when its row is tall enough. */
export const LABEL_PX = 12;
/** No name is drawn smaller than this: below it rows are named by their kind, once per run tall enough. */
export const MIN_LABEL_PX = 11;
/** Where a thread's (or a run's) name starts, right of the node's. */
export const THREAD_LABEL_X = 58;

export interface HeatLabel {
  text: string;
  x: number;
  /** The text's vertical middle, in the viewport's pixels. */
  y: number;
  px: number;
  tone: 'fg' | 'muted';
}

const sameRun = (a: ThreadLine | undefined, b: ThreadLine): boolean => a !== undefined && a.nodeId === b.nodeId && a.kind === b.kind;

/**
 * The names left of the heatmap's rows `first`..`last` (rows `rowH` px high, scrolled by `scrollTop`), never smaller
 * than MIN_LABEL_PX: each node at its first row (or the top, while its rows scroll by); each thread when its row is
 * tall enough; otherwise each run of one kind once ("ldm ×8") where the run is tall enough for the words, so a
 * 144-node cluster's 4 px rows still say which threads they are.
 */
export function heatLabels(lines: readonly ThreadLine[], first: number, last: number, rowH: number, scrollTop: number): HeatLabel[] {
  const out: HeatLabel[] = [];
  const perRow = Math.min(LABEL_PX, rowH) >= MIN_LABEL_PX;
  for (let i = first; i < last; i++) {
    const line = lines[i]!;
    const y = i * rowH - scrollTop;
    if (i === first || lines[i - 1]!.nodeId !== line.nodeId) out.push({ text: `node ${line.nodeId}`, x: 4, y: Math.max(y, 0) + Math.max(rowH, LABEL_PX) / 2, px: LABEL_PX, tone: 'fg' });
    if (perRow) {
      out.push({ text: line.label, x: THREAD_LABEL_X, y: y + rowH / 2, px: Math.min(LABEL_PX, rowH), tone: 'muted' });
      continue;
    }
    // A run is named from its first row in view; its length counts the rows above the view too.
    if (i !== first && sameRun(lines[i - 1], line)) continue;
    let start = i;
    while (start > 0 && sameRun(lines[start - 1], line)) start--;
    let end = i;
    while (end + 1 < lines.length && sameRun(lines[end + 1], line)) end++;
    const rows = end - start + 1;
    if (rows * rowH < MIN_LABEL_PX) continue;
    out.push({ text: rows > 1 ? `${line.kind} ×${rows}` : line.label, x: THREAD_LABEL_X, y: ((start + end + 1) * rowH) / 2 - scrollTop, px: MIN_LABEL_PX, tone: 'muted' });
  }
  return out;
}
