import type { Comparison, FigureRatio, PhaseSummary, RunFigure, RunReport, RunSummary } from '../../../contract/schemas/runs.js';
import { defaultAlign, legendNames } from '../../../contract/page-safe/run-alignment.js';
import { RUN_FIGURES } from '../../../contract/page-safe/vocabulary.js';

type Figures = Pick<RunSummary | PhaseSummary, RunFigure>;

/** The figures compared: those of the phase named `align` when the run has one, else the whole run's. */
function figuresOf(run: RunReport, align: string): Figures {
  const phase = align === 'start' ? undefined : run.phases.find((p) => p.name === align);
  return phase ? phase.summary : run.summary;
}

const ratio = (b: number | undefined, a: number | undefined): number | null => (a === undefined || b === undefined || a === 0 ? null : b / a);

function ratios(a: Figures, b: Figures): FigureRatio[] {
  return RUN_FIGURES.map((figure) => {
    const fa = a[figure];
    const fb = b[figure];
    const low = ratio(fb?.p5, fa?.p5);
    const high = ratio(fb?.p95, fa?.p95);
    const ordered = low !== null && high !== null && low > high ? [high, low] : [low, high];
    return { figure, ratio: ratio(fb?.mean, fa?.mean), low: ordered[0] ?? null, high: ordered[1] ?? null };
  });
}

/**
 * Runs against the first one (B/A per figure, with the same ratio at p5 and p95 as its spread), and throughput
 * against data nodes with the perfect-linear line drawn from the run with the fewest data nodes. Without `align`
 * the runs are compared over the first phase they share after warm-up (`defaultAlign`); `start` is the whole runs.
 */
export function compareRuns(runs: readonly RunReport[], figure: RunFigure, asked?: string): Comparison | null {
  const [baseline] = runs;
  if (!baseline || runs.length < 2) return null;
  const align = asked ?? defaultAlign(runs);
  const names = legendNames(runs);
  const base = figuresOf(baseline, align);
  const rows = runs.slice(1).map((r, i) => ({ runId: r.id, name: names[i + 1] ?? r.name, ratios: ratios(base, figuresOf(r, align)) }));
  const points = runs.map((r, i) => ({ runId: r.id, name: names[i] ?? r.name, dataNodes: r.dataNodes, mean: figuresOf(r, align)[figure]?.mean ?? null }));
  const smallest = points.filter((p) => p.dataNodes > 0 && p.mean !== null).sort((a, b) => a.dataNodes - b.dataNodes)[0];
  const perNode = smallest && smallest.mean !== null ? smallest.mean / smallest.dataNodes : null;
  const scaleOut = points
    .map((p) => {
      const linear = perNode === null ? null : perNode * p.dataNodes;
      return { ...p, linear, efficiency: linear && p.mean !== null ? p.mean / linear : null };
    })
    .sort((a, b) => a.dataNodes - b.dataNodes);
  return { baselineId: baseline.id, align, rows, scaleOut };
}
