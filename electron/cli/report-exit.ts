import { EXIT } from './exit-codes.js';

/**
 * What `ndbtop report` says on stderr, and exits with, when it has no run to report: the recordings hold none,
 * or none of the names given with `--run`. Not a failure of ndbtop (exit 1 is kept for those), so a script can
 * tell "nothing was marked" from a report it can use.
 */
export function noRunsOutcome(files: readonly string[], runNames: readonly string[], wanted: readonly string[] | undefined): { code: number; message: string } {
  const where = files.join(', ');
  const message =
    wanted !== undefined && runNames.length > 0
      ? `ndbtop report: no run named ${wanted.join(' or ')} in ${where} (runs: ${runNames.join(', ')})\n`
      : `ndbtop report: no runs in ${where} (mark them with r in the dashboard, ndbtop run start, POST /api/runs, or record --run NAME)\n`;
  return { code: EXIT.NO_RUNS, message };
}
