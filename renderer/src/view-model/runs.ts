import { formatChange, type FigureRatio, type Run, type RunFigure, type RunReport } from '../contract.js';

/** "reads/s −26 % (p5..p95 −24..−28 %)", the sentence the comparison table shows per figure. */
export function ratioText(r: FigureRatio): string {
  if (r.ratio === null) return 'n/a';
  const spread = r.low === null || r.high === null ? '' : ` (p5..p95 ${formatChange(r.low)}..${formatChange(r.high)})`;
  return `${formatChange(r.ratio)}${spread}`;
}

/** Where a run is aligned for the overlay: its start, or the start of its first phase named `align`. */
export function alignOffset(run: Pick<RunReport, 'start' | 'phases'>, align: string): number {
  if (align === 'start') return 0;
  const phase = run.phases.find((p) => p.name === align);
  return phase ? phase.start - run.start : 0;
}

/** One line the overlay draws: a stretch of one run (its index in the runs) with no lost second inside it. */
export interface OverlayLine {
  key: string;
  run: number;
  /** The run's first stretch: the one its legend entry belongs to. */
  first: boolean;
  samples: number;
}

/**
 * Rows and lines for the overlay chart: seconds from the alignment point. Runs sample at different instants, so
 * each run's samples become rows of their own and a line is drawn across the other runs' rows (`connectNulls`).
 * A second the engine has no figures for (null: the connection was lost) is not an instant of another run but
 * lost data: the run's line stops there and goes on as a new stretch (a key of its own) after it, so nothing is
 * drawn across the gap.
 */
export function overlaySeries(runs: readonly RunReport[], figure: RunFigure, align: string): { rows: Array<Record<string, number>>; lines: OverlayLine[] } {
  const rows: Array<Record<string, number>> = [];
  const lines: OverlayLine[] = [];
  runs.forEach((run, index) => {
    const zero = alignOffset(run, align);
    const values = run.series.values[figure] ?? [];
    let line: OverlayLine | null = null;
    run.series.offsetMs.forEach((offset, i) => {
      const v = values[i];
      if (v === null || v === undefined) {
        line = null;
        return;
      }
      if (line === null) {
        line = { key: `${run.id}~${lines.length}`, run: index, first: !lines.some((l) => l.run === index), samples: 0 };
        lines.push(line);
      }
      line.samples++;
      rows.push({ t: (offset - zero) / 1000, [line.key]: v });
    });
  });
  return { rows: rows.sort((a, b) => (a.t ?? 0) - (b.t ?? 0)), lines };
}

/** The run started by the one key: a name with the time, so runs started in a hurry stay apart. */
export function quickRunName(now: Date): string {
  return `run ${[now.getHours(), now.getMinutes(), now.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':')}`;
}

/** "phase 2", "phase 3" … for a phase marked without a name. */
export function nextPhaseName(run: Pick<Run, 'phases'>): string {
  return `phase ${run.phases.length + 1}`;
}

/** `compress=on, nodes=8` → tags; pieces without `=` are ignored. */
export function parseTags(text: string): Record<string, string> {
  const tags: Record<string, string> = {};
  for (const piece of text.split(/[,\s]+/)) {
    const i = piece.indexOf('=');
    if (i > 0) tags[piece.slice(0, i)] = piece.slice(i + 1);
  }
  return tags;
}

/** Lines the throughput chart draws for runs: each start (with its first phase), later phase and stop. */
export function runLines(runs: readonly Run[]): Array<{ at: number; label: string }> {
  return runs.flatMap((r) => [
    ...r.phases.map((p) => ({ at: p.start, label: p.start === r.start ? `▶ ${r.name}: ${p.name}` : p.name })),
    ...(r.phases[0]?.start === r.start ? [] : [{ at: r.start, label: `▶ ${r.name}` }]),
    ...(r.end === null ? [] : [{ at: r.end, label: `■ ${r.name}` }]),
  ]);
}
