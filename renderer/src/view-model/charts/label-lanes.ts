/** Width of one character of a chart label (12 px sans-serif, the widest digits and capitals), with its gap. */
export const LABEL_CHAR_PX = 7.5;
/** Lanes of labels a chart edge holds; a label that fits none is left to its line's tooltip. */
export const LABEL_LANES = 3;

export interface Mark {
  at: number;
  label: string;
}

export interface PlacedMark extends Mark {
  /** 0 nearest the edge; null: no room for its text (the line is still drawn). */
  lane: number | null;
  /** Written rightwards from its line, or leftwards when that would run past the right end. */
  anchor: 'start' | 'end';
}

/**
 * Places the labels of vertical marks on a chart `widthPx` wide over [from, until] so no two overlap: each goes in the
 * first lane where it clears the one before it, written leftwards near the right end so it is never cut there (a
 * run's start and its first phase a few seconds apart printed over each other).
 */
export function placeLabels(marks: readonly Mark[], from: number, until: number, widthPx: number, lanes = LABEL_LANES): PlacedMark[] {
  const span = until - from;
  const ends: number[] = Array.from({ length: lanes }, () => -Infinity);
  const sorted = [...marks].sort((a, b) => a.at - b.at);
  return sorted.map((m) => {
    const x = span > 0 ? ((m.at - from) / span) * widthPx : 0;
    const w = m.label.length * LABEL_CHAR_PX + 8;
    const anchor = x + w > widthPx ? 'end' : 'start';
    const [left, right] = anchor === 'start' ? [x, x + w] : [x - w, x];
    const lane = ends.findIndex((end) => left >= end);
    if (lane < 0) return { ...m, lane: null, anchor };
    ends[lane] = right;
    return { ...m, lane, anchor };
  });
}
