import type { EngineHandlers } from '../../../contract/page-safe/api.js';
import type { Run, RunFigure, RunReport, RunReports } from '../../../contract/schemas/runs.js';
import type { ClusterEntry, EngineCore } from '../../core/engine-core.js';
import { EngineRequestError } from '../../core/engine-error.js';
import { compareRuns } from './compare.js';
import { formatReports } from './report-format.js';
import type { RecordingImports } from './recording-imports.js';
import { RunError, type RunInput } from './run-book.js';

type RunHandlers = Pick<EngineHandlers, 'startRun' | 'markPhase' | 'stopRun' | 'getRunReports' | 'exportRuns' | 'listImportedRuns'>;

/**
 * The run requests of the contract. A mark becomes a tracker input stamped now, checked before it is fed so a
 * recording only ever holds marks that applied. Reports of this session's runs are made on request from
 * full-resolution history; runs imported from recordings are kept as reports (`imported`: the engine's `recordings`).
 */
export function runHandlers(engine: EngineCore, imported: RecordingImports): RunHandlers {
  let nextId = 1;

  const mark = (entry: ClusterEntry, input: RunInput): Run => {
    if (engine.host === 'replay') throw new EngineRequestError('UNSUPPORTED', 'a replay cannot mark runs: it plays back what was recorded');
    const problem = entry.tracker.runs.book.check(input);
    if (problem) throw problem;
    engine.feed(entry.id, input);
    const run = entry.tracker.runs.list().find((r) => r.id === input.runId);
    if (!run) throw new RunError('NOT_FOUND', `run ${input.runId} was not kept`);
    return run;
  };

  /** The cluster holding `runId`, else the one asked for (or the first) with its running run. */
  const target = (clusterId: string | undefined, runId: string | undefined): { entry: ClusterEntry; runId: string } => {
    if (runId !== undefined) {
      const entry = clusterId !== undefined ? engine.cluster(clusterId) : engine.entries().find((e) => e.tracker.runs.book.get(runId));
      if (!entry) throw new RunError('NOT_FOUND', `no run with id ${JSON.stringify(runId)}`);
      return { entry, runId };
    }
    const entry = engine.cluster(clusterId);
    const running = entry.tracker.runs.book.running();
    if (!running) throw new RunError('NOT_FOUND', 'no run is running');
    return { entry, runId: running.id };
  };

  const freshId = (): string => {
    let id = `run-${nextId++}`;
    while (engine.entries().some((e) => e.tracker.runs.book.get(id))) id = `run-${nextId++}`;
    return id;
  };

  const reports = (clusterId: string | undefined, runIds: string[] | undefined, figure: RunFigure, align: string | undefined): RunReports => {
    const entry = engine.cluster(clusterId);
    const own = (id: string): RunReport | undefined => {
      const run = entry.tracker.runs.book.get(id);
      return run ? entry.tracker.runReport(run) : undefined;
    };
    const ids = runIds ?? [...entry.tracker.runs.list().map((r) => r.id), ...imported.ids()];
    const runs = ids.map((id) => {
      const report = own(id) ?? imported.get(id);
      if (!report) throw new RunError('NOT_FOUND', `no run with id ${JSON.stringify(id)}`);
      return report;
    });
    return { runs, comparison: runIds && runIds.length >= 2 ? compareRuns(runs, figure, align) : null };
  };

  return {
    startRun: async ({ clusterId, name, tags, phase }) =>
      mark(engine.cluster(clusterId), { kind: 'run', t: Date.now(), op: 'start', runId: freshId(), name, tags: tags ?? {}, ...(phase ? { phase } : {}) }),
    markPhase: async ({ clusterId, runId, name }) => {
      const t = target(clusterId, runId);
      return mark(t.entry, { kind: 'run', t: Date.now(), op: 'phase', runId: t.runId, name });
    },
    stopRun: async ({ clusterId, runId }) => {
      const t = target(clusterId, runId);
      return mark(t.entry, { kind: 'run', t: Date.now(), op: 'stop', runId: t.runId });
    },
    getRunReports: async ({ clusterId, runIds, align, figure }) => reports(clusterId, runIds, figure, align),
    exportRuns: async ({ clusterId, runIds, align, figure, format }) => {
      const content = formatReports(reports(clusterId, runIds, figure, align), format);
      const mime = { md: 'text/markdown', csv: 'text/csv', json: 'application/json' }[format];
      return { filename: `ndbtop-runs-${new Date().toISOString().replace(/[:.]/g, '-')}.${format}`, mime, content };
    },
    listImportedRuns: async () => imported.list(),
  };
}
