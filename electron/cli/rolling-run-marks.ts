import { rollingRun, runMark, type RollEvent, type RollingPlan } from '../engine/rolling/index.js';
import { listRunsOver, markPhaseOver, startRunOver, stopRunOver, type RunsEndpoint } from '../serve/runs-client.js';

/**
 * The CLI's rolling restart as a run on a recording ndbtop (`ndbtop record --port`, `serve`, the desktop app): the
 * run the engine makes of one it hosts (named after the plan, each step a phase, a halt a phase, stopped when done or
 * aborted), marked over the runs endpoint as a benchmark script marks its runs. Marks go out in order; one that fails
 * is told and the restart goes on: recording it never holds a step back.
 */
export class RollingRunMarks {
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly endpoint: RunsEndpoint,
    private readonly plan: RollingPlan,
    /** The run already marked for this plan (a resume), else null. */
    public runId: string | null,
    private readonly hooks: { failed: (text: string) => void; marked: (runId: string) => void },
  ) {}

  event(e: RollEvent): void {
    const mark = runMark(e);
    if (!mark) return;
    this.queue = this.queue.then(() => this.send(mark)).catch((err: unknown) => this.hooks.failed(`not marked on ${this.endpoint.url}: ${err instanceof Error ? err.message : String(err)}`));
  }

  /** Once every mark so far went out (or failed). */
  settled(): Promise<void> {
    return this.queue;
  }

  private async send(mark: NonNullable<ReturnType<typeof runMark>>): Promise<void> {
    const run = rollingRun(this.plan);
    // A process killed after the recorder made the run but before it kept the id: that run, still open, is this plan's.
    this.runId ??= (await listRunsOver(this.endpoint)).find((r) => r.name === run.name && r.end === null)?.id ?? null;
    if (this.runId === null) {
      // A run begins with the first restart sent: nothing is marked for a plan that never acted.
      if (mark.op !== 'phase') return;
      this.runId = (await startRunOver(this.endpoint, run.name, run.tags, mark.name)).id;
      this.hooks.marked(this.runId);
    } else if (mark.op === 'phase') await markPhaseOver(this.endpoint, this.runId, mark.name);
    else await stopRunOver(this.endpoint, this.runId);
  }
}
