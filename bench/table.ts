/**
 * The one table `npm run bench` ends with: every figure a part measured, its goal, the value and whether the goal
 * holds. A part returns its figures; one that failed shows as a row that says so, and the bench goes on.
 */
export interface Figure {
  name: string;
  /** The goal as words ("<= 1 % of a core"); '' for a figure kept to compare runs, with no goal. */
  goal: string;
  value: string;
  /** null: no goal to hold, or not measured. */
  holds: boolean | null;
  /** The goal holds only on a quiet machine (absolute times or CPU shares a loaded machine inflates). */
  quietOnly: boolean;
}

export interface BenchPart {
  name: string;
  /** Runs in `--quick` (each part shortens itself when BENCH_QUICK is set). */
  quick: boolean;
  /** Runs only when named (diagnostics). */
  onRequest?: boolean;
  run: () => Promise<Figure[]>;
}

/** A figure measured against an upper bound. */
export function atMost(name: string, value: number, limit: number, unit: string, quietOnly: boolean, digits = 2): Figure {
  return { name, goal: `<= ${limit}${unit}`, value: `${value.toFixed(digits)}${unit}`, holds: Number.isFinite(value) ? value <= limit : null, quietOnly };
}

/** A figure with no goal of its own, kept beside the others to compare runs. */
export function noted(name: string, value: string): Figure {
  return { name, goal: '', value, holds: null, quietOnly: false };
}

export function failedPart(part: string, err: unknown): Figure {
  return { name: `${part}: did not finish`, goal: 'runs to its end', value: err instanceof Error ? err.message.split('\n')[0]?.slice(0, 120) ?? '' : String(err), holds: false, quietOnly: false };
}

export function skippedPart(part: string, why: string): Figure {
  return { name: `${part}: not run`, goal: '', value: why, holds: null, quietOnly: false };
}

/** The rows as a plain-text table (monospace), widest cell per column. */
export function formatTable(rows: readonly Figure[], header: string): string {
  const cells = rows.map((r) => [r.name, r.goal || '-', r.value, r.holds === null ? '-' : r.holds ? 'yes' : 'NO', r.quietOnly ? 'quiet only' : '']);
  const head = ['figure', 'goal', 'value', 'holds', ''];
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] ?? '').length)));
  const line = (c: readonly string[]): string => c.map((v, i) => v.padEnd(widths[i] ?? 0)).join(' | ').trimEnd();
  return [header, line(head), widths.map((w) => '-'.repeat(w)).join('-|-'), ...cells.map(line)].join('\n');
}
