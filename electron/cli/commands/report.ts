import { basename } from 'node:path';
import type { Command } from 'commander';
import type { RunFigure, RunReport } from '../../contract/schemas/runs.js';
import { RUN_FIGURES } from '../../contract/page-safe/vocabulary.js';
import { compareRuns } from '../../engine/features/runs/compare.js';
import { formatReports, REPORT_FORMATS, type ReportFormat } from '../../engine/features/runs/report-format.js';
import { oneOf } from '../options/options.js';
import { progressBar } from '../format/progress-bar.js';
import { printText } from '../format/terminal-text.js';
import { visibleText } from '../../contract/page-safe/outside-text.js';
import { noRunsOutcome } from '../report-exit.js';
import { testInterval } from '../options/test-intervals.js';

interface ReportOpts {
  run?: string[];
  format: ReportFormat;
  align?: string;
  figure: RunFigure;
}

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/**
 * `ndbtop report FILE…`: the run summaries of recordings (each played through the engine at full speed) and,
 * given two or more runs, their comparison against the first one.
 */
export function registerReport(program: Command): void {
  program
    .command('report')
    .description('summarise the runs in recordings; two or more runs are compared against the first')
    .argument('<files...>', 'recordings (ndbtop record / --record)')
    .option('--run <name>', 'only runs of this name or id (repeatable; the order given is the comparison order)', collect)
    .option('--format <format>', `output: ${REPORT_FORMATS.join(', ')}`, oneOf(REPORT_FORMATS), 'md')
    .option('--align <phase>', 'compare (and overlay) at this phase of each run; default: the first phase they share after warm-up; start: the whole runs')
    .option('--figure <figure>', `the figure of the scale-out table: ${RUN_FIGURES.join(', ')}`, oneOf(RUN_FIGURES), 'transactions')
    .action(async (files: string[], opts: ReportOpts) => {
      const [{ createReplayEngine }, { reportsOfRecording }] = await Promise.all([import('../../engine/recording/replay.js'), import('../../engine/features/runs/recording-runs.js')]);
      const all: RunReport[] = [];
      for (const file of files) {
        const bar = progressBar(visibleText(basename(file)));
        const { reports, problems, unreadable } = await reportsOfRecording(file, basename(file), createReplayEngine, bar.update, testInterval('NDBTOP_REPORT_LEAD_MS', 'leadMs').leadMs).finally(bar.done);
        // Recordings are shared: what they quote (a line's bytes in a parse error) must not drive the terminal.
        for (const p of problems) printText(process.stderr, `ndbtop report: ${file} line ${p.line} skipped: ${p.error}\n`);
        if (unreadable > problems.length) printText(process.stderr, `ndbtop report: ${file}: ${unreadable - problems.length} more unreadable lines skipped\n`);
        all.push(...reports.map((r) => (files.length > 1 ? { ...r, id: `${basename(file)}:${r.id}` } : r)));
      }
      const wanted = opts.run;
      const runs = wanted ? wanted.flatMap((w) => all.filter((r) => r.name === w || r.id === w || r.id.endsWith(`:${w}`))) : all;
      process.stdout.write(formatReports({ runs, comparison: compareRuns(runs, opts.figure, opts.align) }, opts.format));
      if (runs.length > 0) return;
      const empty = noRunsOutcome(files, all.map((r) => r.name), wanted);
      // It lists the recordings' run names.
      printText(process.stderr, empty.message);
      process.exitCode = empty.code;
    });
}
