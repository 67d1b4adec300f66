/** Which of a list laid out in lines of equal columns is in a scroll box that shows `shown` lines at a time. */
export interface StripWindow {
  perLine: number;
  lines: number;
  /** Items [from, to) are in the page; the lines before and after them are padding of `lineHeight` each. */
  from: number;
  to: number;
  padTop: number;
  padBottom: number;
}

/**
 * The lines a scroll position shows (and one more, for a line partly scrolled in) of `count` items `itemWidth` wide
 * with `gap` between them on lines `width` wide. Before the items are measured (`itemWidth` 0), one a line.
 */
export function stripWindow(count: number, width: number, itemWidth: number, gap: number, lineHeight: number, shown: number, scrollTop: number): StripWindow {
  const perLine = itemWidth > 0 ? Math.max(1, Math.floor((width + gap) / (itemWidth + gap))) : 1;
  const lines = Math.ceil(count / perLine);
  const firstLine = Math.max(0, Math.min(Math.floor(scrollTop / lineHeight), lines - shown));
  const lastLine = Math.min(lines, firstLine + shown + 1);
  return { perLine, lines, from: firstLine * perLine, to: Math.min(count, lastLine * perLine), padTop: firstLine * lineHeight, padBottom: (lines - lastLine) * lineHeight };
}
