import { visibleLine } from '../../../contract/page-safe/outside-text.js';

/** A figure as this program writes one (`-12`, `0.5`, `-0.0312`, `1e-7`): left as it is, so it stays a number. */
const NUMBER = /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i;
/**
 * What a spreadsheet takes for the start of a formula (OWASP "CSV injection"): `=HYPERLINK(…)` or `@SUM(…)` in a
 * run name would run when the export is opened. TAB and CR are on OWASP's list too; the outside-text rule has
 * already turned them into text, but the rule here does not count on it.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV field of an export: the outside-text rule first (one line, no control character), then a text that a
 * spreadsheet would read as a formula is prefixed with `'` (shown, not evaluated) and quoted, and a field with a
 * comma or quote is quoted as RFC 4180 wants. A number keeps its sign: `-3.5` is a figure, not a formula.
 */
export function csvCell(text: string): string {
  const line = visibleLine(text);
  if (FORMULA_START.test(line) && !NUMBER.test(line)) return `"'${line.replace(/"/g, '""')}"`;
  return /[",]/.test(line) ? `"${line.replace(/"/g, '""')}"` : line;
}
