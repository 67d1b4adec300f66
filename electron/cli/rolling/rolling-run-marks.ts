import { rollingRun, runMark, type RollEvent, type RollMachine, type RollingPlan } from '../../engine/features/rolling/index.js';
import { listRunsOver, markPhaseOver, startRunOver, stopRunOver, type RunsEndpoint } from '../../serve/runs-client.js';

/**
 * The CLI's rolling restart as a run on a recording ndbtop (`ndbtop record --port`, `serve`, the desktop app): the
 * run the engine makes of one it hosts (named after the plan, begun before the first step, each step sent a phase, a
 * halt a phase, stopped when done or aborted), marked over the runs endpoint as a benchmark script marks its runs.
 * Marks go out in order; one that fails is told and the restart goes on: recording it never holds a step back.
 */
export class RollingRunMarks {
  private queue: Promise<void> = Promise.resolve();
  /** The run was found or begun by this process. */
  private checked = false;

  constructor(
    private readonly endpoint: RunsEndpoint,
    private readonly plan: RollingPlan,
    /** The run already marked for this plan (a resume), else null. */
    public runId: string | null,
    private readonly hooks: { failed: (text: string) => void; marked: (runId: string) => void },
  ) {}

  /** `m`: the machine after the event. */
  event(e: RollEvent, m: RollMachine): void {
    const mark = runMark(e);
    if (!mark && e.event !== 'step' && e.event !== 'resumed') return;
    this.queue = this.queue
      .then(async () => {
        const marked = await this.ensureRun(mark?.op === 'stop');
        const runId = this.runId;
        if (runId === null) return;
        // A process killed mid-step may have lost the mark of the step whose restart was out (and is watched now,
        // not sent again): it is marked when the resume finds it missing.
        const inFlight = e.event === 'resumed' && m.run && m.run.send !== 'refused' ? runMark({ event: 'restarting', step: m.run.step + 1, nodes: m.run.nodes.map((n) => n.nodeId) }) : null;
        if (inFlight?.op === 'phase' && marked !== null && !marked.includes(inFlight.name)) await markPhaseOver(this.endpoint, runId, inFlight.name);
        if (mark?.op === 'phase') await markPhaseOver(this.endpoint, runId, mark.name);
        else if (mark?.op === 'stop') await stopRunOver(this.endpoint, runId);
      })
      .catch((err: unknown) => this.hooks.failed(`not marked on ${this.endpoint.url}: ${err instanceof Error ? err.message : String(err)}`));
  }

  /** Once every mark so far went out (or failed). */
  settled(): Promise<void> {
    return this.queue;
  }

  /**
   * The plan's run: the one kept (found by id), else one left open under its name (a process killed after the
   * recorder made it but before the id was kept), else a new one unless `findOnly`. The first time, says which phases
   * the run already has; null once known.
   */
  private async ensureRun(findOnly: boolean): Promise<string[] | null> {
    if (this.checked) return null;
    const run = rollingRun(this.plan);
    const runs = await listRunsOver(this.endpoint);
    const found = runs.find((r) => (this.runId !== null ? r.id === this.runId : r.name === run.name && r.end === null));
    this.runId = found?.id ?? null;
    if (this.runId === null && !findOnly) this.runId = (await startRunOver(this.endpoint, run.name, run.tags)).id;
    if (this.runId === null) return null;
    this.checked = true;
    this.hooks.marked(this.runId);
    return found?.phases.map((p) => p.name) ?? [];
  }
}
