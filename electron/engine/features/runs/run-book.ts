import type { Run } from '../../../contract/schemas/runs.js';

/** What marks a run; these are tracker inputs, so they are recorded and a replay derives the same runs. */
export type RunInput =
  | { kind: 'run'; t: number; op: 'start'; runId: string; name: string; tags: Record<string, string>; phase?: string }
  | { kind: 'run'; t: number; op: 'phase'; runId: string; name: string }
  | { kind: 'run'; t: number; op: 'stop'; runId: string };

export class RunError extends Error {
  constructor(
    readonly code: 'NOT_FOUND' | 'CONFLICT',
    message: string,
  ) {
    super(message);
  }
}

/** How many runs a cluster keeps (oldest finished ones go first). */
const CAPACITY = 200;

/** The runs of one cluster: at most one running at a time, phases strictly one after another. */
export class RunBook {
  private readonly runs: Run[] = [];

  list(): Run[] {
    return this.runs.map((r) => ({ ...r, tags: { ...r.tags }, phases: r.phases.map((p) => ({ ...p })) }));
  }

  get(id: string): Run | undefined {
    return this.runs.find((r) => r.id === id);
  }

  /** The runs whose span holds `t` (at most two: one stopped at `t`, one started at it), the book's own objects. */
  covering(t: number): Run[] {
    const out: Run[] = [];
    for (let i = this.runs.length - 1; i >= 0; i--) {
      const run = this.runs[i] as Run;
      if (run.start <= t && (run.end === null || run.end >= t)) out.unshift(run);
      else if (run.end !== null && run.end < t) break;
    }
    return out;
  }

  running(): Run | undefined {
    return this.runs.find((r) => r.end === null);
  }

  /** Why `input` cannot be applied, or null; the engine asks before recording an input. */
  check(input: RunInput): RunError | null {
    if (input.op === 'start') {
      const open = this.running();
      if (open) return new RunError('CONFLICT', `run ${open.id} (${open.name}) is still running: stop it first`);
      if (this.get(input.runId)) return new RunError('CONFLICT', `a run with id ${input.runId} exists`);
      return null;
    }
    const run = this.get(input.runId);
    if (!run) return new RunError('NOT_FOUND', `no run with id ${JSON.stringify(input.runId)}`);
    if (run.end !== null) return new RunError('CONFLICT', `run ${run.id} (${run.name}) has already stopped`);
    return null;
  }

  apply(input: RunInput): Run | null {
    if (this.check(input)) return null;
    const t = input.t;
    if (input.op === 'start') {
      const run: Run = { id: input.runId, name: input.name, tags: { ...input.tags }, start: t, end: null, phases: [] };
      if (input.phase) run.phases.push({ name: input.phase, start: t, end: null });
      this.runs.push(run);
      this.trim();
      return run;
    }
    const run = this.get(input.runId);
    if (!run) return null;
    const current = run.phases.at(-1);
    if (current && current.end === null) current.end = Math.max(current.start, t);
    if (input.op === 'phase') run.phases.push({ name: input.name, start: t, end: null });
    else run.end = Math.max(run.start, t);
    return run;
  }

  private trim(): void {
    while (this.runs.length > CAPACITY) {
      const i = this.runs.findIndex((r) => r.end !== null);
      if (i < 0) return;
      this.runs.splice(i, 1);
    }
  }
}
