import type { Run, RunReport } from '../../../contract/schemas/runs.js';
import type { Progress } from '../../recording/recording-source.js';
import type { RecordingRuns } from './recording-runs.js';

/** The runs of a recording file with their reports, as `ndbtop report` and an import give them. */
export type ReadRuns = (file: string, source: string, onProgress?: Progress) => Promise<RecordingRuns>;

/** Runs imported from recordings the user picked, kept for comparison; the oldest go first. */
const IMPORTED_CAPACITY = 100;

const runOf = (r: RunReport): Run => ({
  id: r.id,
  name: r.name,
  tags: r.tags,
  start: r.start,
  end: r.end,
  phases: r.phases.map((p) => ({ name: p.name, start: p.start, end: p.end })),
  source: r.source,
});

/**
 * The runs of recordings imported for comparison, kept as reports in the engine (so a page reloaded, or another
 * viewer, sees them: `listImportedRuns`). Each import gets an id prefix of its own; a name already taken by an
 * imported run gets its file's name, then a number, so two imports of runs named alike stay apart.
 */
export class RecordingImports {
  private readonly reports = new Map<string, RunReport>();
  private next = 1;

  /** `read` plays a file through an engine (the factories give it: the engine itself may not import replay). */
  constructor(private readonly read: ReadRuns) {}

  async importFile(file: string, name: string, onProgress?: Progress): Promise<Run[]> {
    const { reports } = await this.read(file, name, onProgress);
    const prefix = `f${this.next++}`;
    return reports.map((r) => {
      const kept = { ...r, id: `${prefix}:${r.id}`, name: this.freeName(r.name, name) };
      this.reports.set(kept.id, kept);
      while (this.reports.size > IMPORTED_CAPACITY) this.reports.delete(this.reports.keys().next().value ?? kept.id);
      return runOf(kept);
    });
  }


  get(id: string): RunReport | undefined {
    return this.reports.get(id);
  }

  ids(): string[] {
    return [...this.reports.keys()];
  }

  list(): Run[] {
    return [...this.reports.values()].map(runOf);
  }

  private freeName(name: string, source: string): string {
    const taken = new Set([...this.reports.values()].map((r) => r.name));
    if (!taken.has(name)) return name;
    const named = `${name} (${source})`;
    let candidate = named;
    for (let k = 2; taken.has(candidate); k++) candidate = `${named} #${k}`;
    return candidate;
  }
}
