import { randomUUID } from 'node:crypto';
import { sameValue } from '../../../contract/page-safe/same-value.js';
import { pathFree } from '../../core/path-free.js';
import type { RollingPlanView } from '../../../contract/schemas/rolling-restart.js';
import type { TrackerInput } from '../../cluster/tracker-input.js';
import type { RunInput } from '../runs/run-book.js';
import type { ClusterIdentity } from './cluster-identity.js';
import { RollingConductor } from './execution/conductor.js';
import { declaringPort } from './ports/declared-port.js';
import { EngineClusterPort, type EngineSide } from './ports/engine-port.js';
import { eventText, nodes } from './execution/event-text.js';
import { initialMachine } from './execution/executor.js';
import { hostedEta } from './plan/hosted-eta.js';
import { PlanStore, resumeAfterRestart, type LoadedRolling } from './plan/plan-store.js';
import { DEFAULT_LIMITS, planRollingRestart } from './plan/planner.js';
import { planView } from './plan/plan-view.js';
import { rollingRun, runMark } from './execution/run-marks.js';
import { initialRestartNotes } from './plan/initial-restart.js';
import type { CheckSettings, Observation, PlanLimits, RestartOrder, RollEvent, RollInput, RollMachine } from './types.js';

/** Codes the transports turn into 404 / 409 / 403. */
export class RollingError extends Error {
  constructor(
    readonly code: 'NOT_FOUND' | 'CONFLICT' | 'FORBIDDEN',
    message: string,
  ) {
    super(message);
  }
}

export interface RollingHostOptions {
  side: EngineSide;
  /** The cluster's id or connectstring, for the plan's record. */
  cluster: string;
  /** Into the tracker (recorded): planned work, run marks and the plan's view. */
  feed: (input: TrackerInput) => void;
  /** Whether a run mark would apply (one run at a time per cluster). */
  checkRun: (input: RunInput) => Error | null;
  replicas: () => number | null;
  /** The cluster's identity from its configuration; null until the configuration is read. */
  identity: () => ClusterIdentity | null;
  /** The cluster's state file, once its identity is known; null: nothing is kept on disk. */
  store: ((cluster: ClusterIdentity) => PlanStore) | null;
  /** Where an ndbtop that kept no cluster identity wrote this connectstring's plan: read only to say it is not applied. */
  legacyFile?: string;
  pollIntervalMs: number;
  limits?: PlanLimits;
}

export interface PlanOptions {
  nodes?: readonly number[] | undefined;
  order: RestartOrder;
  pauseMs: number;
  checks?: Partial<CheckSettings>;
}

/** The settings given (a request's absent keys come as undefined, which must not hide the defaults). */
const stripUndefined = (c: Partial<CheckSettings>): Partial<CheckSettings> => Object.fromEntries(Object.entries(c).filter(([, v]) => v !== undefined));

/** An ETA that only drifts by the seconds passing (no step left is timed yet) is not a change worth a push. */
const FINISH_BUCKET_MS = 5000;

function comparable(v: RollingPlanView): unknown {
  const bucket = (t: number): number => Math.round(t / FINISH_BUCKET_MS);
  const finishAt = v.eta.finishAt === null ? null : bucket(v.eta.finishAt);
  const finishRange = v.eta.finishRange && { from: bucket(v.eta.finishRange.from), to: bucket(v.eta.finishRange.to) };
  return { ...v, updatedAt: 0, eta: { ...v.eta, finishAt, finishRange } };
}

const ACTIVE = new Set(['checking', 'restarting', 'waiting', 'pausing', 'halted']);
const LOG_LINES = 200;
/** How often the view is rebuilt between the conductor's events (hazards of a plan not started, the ETA). */
const REFRESH_MS = 1000;

/**
 * One cluster's rolling restart conducted by the engine: the plan made from the engine's own picture of the
 * cluster, the conductor over a port that declares each restart planned work before it is sent (so the alert rooms
 * see progress, not an alarm per step), the plan on disk (a plan in progress survives a restart of ndbtop: it comes
 * back halted at its step), a run per rolling restart (its steps are phases), and the view every page is pushed.
 */
export class RollingHost {
  private machine: RollMachine | null = null;
  private started = false;
  private conductor: RollingConductor | null = null;
  private history: number[] = [];
  private log: RollingPlanView['log'] = [];
  /** Said once about the files on disk (a plan an earlier ndbtop left): every new plan's log begins with them. */
  private notices: RollingPlanView['log'] = [];
  private runId: string | null = null;
  private lastObs: Observation | null = null;
  private store: PlanStore | null = null;
  private published: RollingPlanView | null = null;
  private readonly port: EngineClusterPort;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly options: RollingHostOptions) {
    this.port = new EngineClusterPort(options.side, () => this.conductor?.machine.run?.sentAt ?? null);
    this.attachStore();
    this.timer = setInterval(() => void this.refresh(), REFRESH_MS);
    void this.refresh();
  }

  /**
   * The cluster's state file, opened once its configuration says which cluster this is (the connectstring does not:
   * another cluster can answer at the same address). A plan it holds that was active comes back halted.
   */
  private attachStore(): void {
    if (this.store || !this.options.store) return;
    const identity = this.options.identity();
    if (!identity) return;
    this.store = this.options.store(identity);
    this.noteLegacy(identity);
    const loaded = this.load(this.store);
    if (loaded.kind === 'foreign') this.note(loaded.why);
    if (loaded.kind !== 'ours') return;
    const stored = loaded.stored;
    this.history = stored.history;
    if (stored.machine && ACTIVE.has(stored.machine.phase.kind)) {
      this.machine = resumeAfterRestart(stored.machine, this.options.side.now());
      this.started = true;
      this.note(this.machine.phase.kind === 'halted' ? `ndbtop started again: ${this.machine.phase.reason}` : 'ndbtop started again');
      this.adoptRun(this.machine, stored.runId ?? null);
      this.save(this.machine);
    }
  }

  private noteLegacy(identity: ClusterIdentity): void {
    if (!this.options.legacyFile || !this.store) return;
    const old = this.load(new PlanStore(this.options.legacyFile, identity));
    if (old.kind !== 'foreign' || !old.active) return;
    this.notices = [this.logLine(`${old.why} (left as it is: delete it once that plan is over)`)];
    this.log = [...this.log, ...this.notices];
  }

  /** The plan on disk; a file that cannot be read is said in the log and left as it is (never overwritten unread). */
  private load(store: PlanStore): LoadedRolling {
    try {
      return store.load();
    } catch (err) {
      this.note(`the recorded plan could not be read: ${err instanceof Error ? err.message : String(err)}`);
      return { kind: 'none' };
    }
  }

  view(): RollingPlanView | null {
    return this.published;
  }

  async plan(req: PlanOptions): Promise<RollingPlanView> {
    if (this.machine && this.started && ACTIVE.has(this.machine.phase.kind)) {
      throw new RollingError('CONFLICT', `rolling restart ${this.machine.plan.id} is in progress (${this.machine.phase.kind}): resume or abort it first`);
    }
    this.attachStore();
    if (this.options.store && !this.store) throw new RollingError('CONFLICT', "the cluster's configuration has not been read yet: a plan could not be recorded as this cluster's");
    const snap = this.options.side.snapshot();
    const dataNodeIds = snap.nodes.filter((n) => n.type === 'NDB').map((n) => n.nodeId);
    const out = planRollingRestart({
      id: randomUUID(),
      cluster: this.options.cluster,
      createdAt: this.options.side.now(),
      dataNodes: snap.nodes.filter((n) => n.type === 'NDB').map((n) => ({ nodeId: n.nodeId, status: n.status, nodeGroup: n.nodeGroup })),
      mgmNodeIds: snap.nodes.filter((n) => n.type === 'MGM').map((n) => n.nodeId),
      replicas: this.options.replicas(),
      ...(req.nodes ? { chosen: req.nodes } : {}),
      order: req.order,
      pauseMs: req.pauseMs,
      limits: this.options.limits ?? DEFAULT_LIMITS,
      ...(req.checks ? { checks: stripUndefined(req.checks) } : {}),
      initialRestart: initialRestartNotes(this.options.side.config()?.lastChange ?? null, dataNodeIds),
    });
    if (!out.ok) throw new RollingError('CONFLICT', `no plan can be made: ${out.reasons.join('; ')}`);
    this.closeConductor();
    this.machine = initialMachine(out.plan);
    this.started = false;
    this.runId = null;
    this.log = [...this.notices];
    this.note(`planned: ${out.plan.steps.length} steps, ${out.plan.steps.map((s, i) => `step ${i + 1} ${nodes(s)}`).join('; ')}`);
    return this.refresh();
  }

  start(planId: string): Promise<RollingPlanView> {
    const m = this.expect(planId);
    if (this.started) throw new RollingError('CONFLICT', `rolling restart ${planId} has already started (${m.phase.kind})`);
    this.started = true;
    this.startRun(m);
    return this.drive({ kind: 'start' });
  }

  halt(planId: string): Promise<RollingPlanView> {
    this.expectStarted(planId);
    return this.drive({ kind: 'pause' });
  }

  resume(planId: string, skip: boolean): Promise<RollingPlanView> {
    const m = this.expectStarted(planId);
    if (m.phase.kind !== 'halted') throw new RollingError('CONFLICT', `rolling restart ${planId} is not halted (${m.phase.kind})`);
    return this.drive(skip ? { kind: 'skip' } : { kind: 'resume' });
  }

  abort(planId: string): Promise<RollingPlanView> {
    this.expect(planId);
    this.started = true;
    return this.drive({ kind: 'abort' });
  }

  close(): void {
    clearInterval(this.timer);
    this.closeConductor();
    this.port.close();
  }

  private expect(planId: string): RollMachine {
    const m = this.conductor?.machine ?? this.machine;
    if (!m || m.plan.id !== planId) throw new RollingError('NOT_FOUND', `no rolling restart ${JSON.stringify(planId)} (plan one first)`);
    return m;
  }

  private expectStarted(planId: string): RollMachine {
    const m = this.expect(planId);
    if (!this.started) throw new RollingError('CONFLICT', `rolling restart ${planId} has not started`);
    return m;
  }

  /** One operator command into the conductor (made on first use, for a plan read back from disk too). */
  private async drive(input: RollInput): Promise<RollingPlanView> {
    const conductor = this.conductor ?? this.makeConductor();
    conductor.input(input);
    this.machine = conductor.machine;
    return this.refresh();
  }

  private makeConductor(): RollingConductor {
    const machine = this.machine;
    if (!machine) throw new RollingError('NOT_FOUND', 'no rolling restart planned');
    const port = declaringPort(this.port, (input) => this.options.feed(input), `rolling restart ${machine.plan.id.slice(0, 8)}`, this.options.side.now);
    const observing = { observe: async () => (this.lastObs = await port.observe()), restart: port.restart };
    const conductor = new RollingConductor(machine, {
      port: observing,
      history: this.history,
      pollIntervalMs: this.options.pollIntervalMs,
      now: this.options.side.now,
      sink: { persist: (m, h) => this.save(m, h) },
    });
    conductor.onEvent((e, m) => this.onEvent(e, m));
    conductor.follow();
    this.conductor = conductor;
    return conductor;
  }

  private onEvent(e: RollEvent, m: RollMachine): void {
    this.machine = m;
    this.history = [...(this.conductor?.durations ?? this.history)];
    this.note(eventText(e));
    const mark = runMark(e);
    if (mark) this.markRun(mark);
    void this.refresh();
  }

  private startRun(m: RollMachine): void {
    this.openRun(m, `rolling-${m.plan.id.slice(0, 8)}`);
  }

  /**
   * A plan read back from disk keeps the run the previous ndbtop made of it: the run is opened again under the same
   * id, in the phase of the step whose restart was out, so the steps still to come are its phases (a recording
   * appended to by both processes shows that one run: the new process's part starts the cluster afresh).
   */
  private adoptRun(m: RollMachine, runId: string | null): void {
    if (runId === null) return;
    const inStep = m.run && m.run.step === m.step && m.run.send !== 'refused' ? runMark({ event: 'restarting', step: m.step + 1, nodes: m.run.nodes.map((p) => p.nodeId) }) : null;
    this.openRun(m, runId, inStep?.op === 'phase' ? inStep.name : undefined);
  }

  private openRun(m: RollMachine, runId: string, phase?: string): void {
    const input: RunInput = { kind: 'run', t: this.options.side.now(), op: 'start', runId, ...rollingRun(m.plan), ...(phase === undefined ? {} : { phase }) };
    const problem = this.options.checkRun(input);
    if (problem) {
      this.note(`not recorded as a run: ${problem.message}`);
      return;
    }
    this.options.feed(input);
    this.runId = runId;
  }

  private markRun(mark: { op: 'phase'; name: string } | { op: 'stop' }): void {
    if (!this.runId) return;
    const input: RunInput = mark.op === 'phase' ? { kind: 'run', t: this.options.side.now(), op: 'phase', runId: this.runId, name: mark.name } : { kind: 'run', t: this.options.side.now(), op: 'stop', runId: this.runId };
    if (!this.options.checkRun(input)) this.options.feed(input);
  }

  private note(text: string): void {
    this.log = [...this.log, this.logLine(text)].slice(-LOG_LINES);
  }

  /** A log line as anyone may read it, and with the server's paths (the state files, a file system error's) as `detail`. */
  private logLine(text: string): RollingPlanView['log'][number] {
    const named: Array<[string, string]> = [];
    if (this.store) named.push([this.store.file, "the cluster's state file"]);
    if (this.options.legacyFile) named.push([this.options.legacyFile, 'the old state file']);
    const shown = pathFree(text, named);
    return { at: this.options.side.now(), text: shown, ...(shown === text ? {} : { detail: text }) };
  }

  private save(m: RollMachine, history: readonly number[] = this.history): void {
    try {
      this.store?.save({ machine: m, history: [...history], runId: this.runId });
    } catch (err) {
      this.note(`the plan could not be written to ${this.store?.file ?? 'its file'}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /** Rebuilds the view; pushes it (a recorded tracker input) only when it changed. */
  private async refresh(): Promise<RollingPlanView> {
    this.attachStore();
    const m = this.conductor?.machine ?? this.machine;
    if (!m) return this.published as RollingPlanView;
    // A plan not started has no conductor polling: its hazards are checked against the engine's picture now.
    if (!this.conductor) this.lastObs = await this.port.observe();
    const now = this.options.side.now();
    const { eta, finish } = hostedEta(m, this.options.side.snapshot(), this.history, now);
    const view = planView({ machine: m, started: this.started, obs: this.lastObs, eta, finish, log: this.log, runId: this.runId, at: now });
    if (!this.published || !sameValue(comparable(view), comparable(this.published))) {
      this.published = view;
      this.options.feed({ kind: 'rolling-plan', t: now, view });
    }
    return this.published ?? view;
  }

  private closeConductor(): void {
    this.conductor?.close();
    this.conductor = null;
  }
}
