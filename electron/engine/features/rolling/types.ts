import type { NodeStatus } from '../../../contract/schemas/node.js';
import type { CheckWords } from '../../../contract/page-safe/rolling-checks.js';

/**
 * The shapes the rolling-restart room shares between planner, safety check, executor, store and conductor. All
 * plain JSON (a plan in progress is written to disk and read back by the next ndbtop).
 */
export type RestartOrder = 'node-group' | 'node-id';

/** One data node as the status source last saw it. */
export interface ObservedNode {
  nodeId: number;
  status: NodeStatus;
  /** null while `get status` prints a placeholder (NO_CONTACT); the plan's record fills it. */
  nodeGroup: number | 'none' | null;
  /** Changes at every restart (a new place in the heartbeat ring), so a restart missed between polls still shows. */
  dynamicId: number | null;
  startPhase: number;
}

/** What the conductor learned at one moment: fed to the executor, which reads no clock of its own. */
export interface Observation {
  at: number;
  /** The status source answered; false while the connection is down (then `nodes` is empty). */
  connected: boolean;
  /** Why it did not answer, in words. */
  error: string | null;
  /** Data nodes only. */
  nodes: readonly ObservedNode[];
  /** Texts of the critical alerts active now (none where no alert book runs, as in the CLI without --mark-url). */
  criticalAlerts: readonly string[];
  /** Why whether a critical alert is active could not be told (the CLI's watching ndbtop did not answer). */
  alertsUnknown?: string;
  /**
   * ndbinfo `restart_info`: nodes whose restart begun since the step's send it reports complete (an older,
   * completed restart must not be listed); null without ndbinfo.
   */
  restartCompleted: readonly number[] | null;
  /** What NDB itself needs before a node goes down (backup, redo, global checkpoint, arbitrator); absent: none read. */
  ndb?: NdbFacts;
}

/** A fact a check rests on, or why it could not be had (in words). */
export type Known<T> = { known: true; value: T } | { known: false; why: string };

/** The facts of the NDB checks, each from the source that has it (`plan/ndb-checks.ts` judges them). */
export interface NdbFacts {
  /** The backup running now; null: none. */
  backup: Known<{ backupId: number; startedAt: number } | null>;
  /** Each data node's redo log fill (its fullest part), percent; a node without a reading is left out. */
  redo: Known<ReadonlyArray<{ nodeId: number; percent: number; at: number }>>;
  /** The last global checkpoint seen completed (null: none yet) since the events were watched from `watchedSince`. */
  gcp: Known<{ gci: number | null; completedAt: number | null; watchedSince: number }>;
  /** The arbitrator, or null when there is none; `how`: where that was read, in words. */
  arbitrator: Known<{ nodeId: number | null; how: string }>;
}

/** What the NDB checks hold the plan to; chosen when it is made (absent from plans made before them: the defaults). */
export interface CheckSettings {
  /** A backup running: wait for it to end, or halt. */
  backup: 'wait' | 'halt';
  /** The most a step's nodes' and their partners' redo log may be filled, percent. */
  redoLimitPct: number;
  /** The longest time since the last global checkpoint completed. */
  gcpLagMs: number;
  /** A check that cannot be made lets the step go (said once) instead of halting. */
  allowUnchecked: boolean;
}

/** One NDB check before a step: `pass`, `wait` (the plan goes on when it clears), `halt`, or `unchecked` (allowed), with its figure. */
export type CheckResult = CheckWords;

export interface PlanLimits {
  /** After the restart reply (or its loss), how long a node may stay STARTED with no sign it restarted. */
  leaveMs: number;
  /** How long a step node may wait in NOT_STARTED for its start order. */
  notStartedMs: number;
  /** From the send until every node of the step is STARTED again. */
  stepMs: number;
}

export interface RollingPlan {
  id: string;
  /** The connectstring (or cluster id) it was made for. */
  cluster: string;
  createdAt: number;
  order: RestartOrder;
  pauseMs: number;
  steps: number[][];
  /** Each planned node's node group as known at plan time (status, else configuration). */
  nodeGroups: Array<{ nodeId: number; nodeGroup: number | 'none' }>;
  replicas: number | null;
  /** What ndbtop does not do itself, in words (management servers). */
  manual: string[];
  limits: PlanLimits;
  /** Absent from plans written before the NDB checks: `checksOf` gives the defaults. */
  checks?: CheckSettings;
}

/** What a step's restart request became. `lost`: sent, but the reply never came, so whether it ran is unknown. */
export type SendState = 'in-flight' | 'accepted' | 'refused' | 'lost';

export interface NodeProgress {
  nodeId: number;
  /** Dynamic id before the send. */
  baseline: number | null;
  /** Seen out of STARTED, or back with a new dynamic id: it really restarted. */
  left: boolean;
  /** First seen in NOT_STARTED (since then without a start order). */
  notStartedSince: number | null;
  /** STARTED again after it left. */
  backAt: number | null;
}

export interface StepRun {
  step: number;
  attempt: number;
  send: SendState;
  sentAt: number;
  /** When the reply came (accepted) or was lost: the leave deadline counts from here. */
  answeredAt: number | null;
  lostError: string | null;
  nodes: NodeProgress[];
}

/** `unreachable`: the management server could not be reached when a check or a deadline needed its word. */
export type HaltCode = 'unsafe' | 'refused' | 'timeout' | 'unreachable' | 'operator' | 'interrupted';

export type RollPhase =
  | { kind: 'idle' }
  | { kind: 'checking' }
  | { kind: 'restarting'; attempt: number }
  | { kind: 'waiting' }
  | { kind: 'pausing'; until: number }
  | { kind: 'halted'; code: HaltCode; reason: string }
  | { kind: 'done' }
  | { kind: 'aborted' };

export interface StepResult {
  step: number;
  nodes: number[];
  outcome: 'restarted' | 'skipped';
  /** From the send until the last node of the step was STARTED again. */
  durationMs: number | null;
  /** When its restart was sent (null when skipped, and in files written before it was kept): the gaps between steps. */
  sentAt: number | null;
}

/** The executor's whole state; persisted as it is. */
export interface RollMachine {
  plan: RollingPlan;
  phase: RollPhase;
  /** Index of the current step (steps.length once done). */
  step: number;
  /** The current step's restart, once sent (kept through a halt, so a resume waits for it instead of sending again). */
  run: StepRun | null;
  /** Every node a restart was sent for in this plan and not refused: never sent again. */
  sent: number[];
  results: StepResult[];
  /** The operator asked to pause while a step ran: halt when it completes. */
  holdAfterStep: boolean;
  nextAttempt: number;
  /** The NDB checks the plan waits for before its step, as last said (so a wait is said once); absent: none. */
  checkWait?: string | null;
}

export type RollEvent =
  | { event: 'step'; step: number; of: number; nodes: number[] }
  /** The NDB checks a step passed, each with its figure, just before its restart is sent. */
  | { event: 'checked'; step: number; checks: CheckResult[] }
  | { event: 'restarting'; step: number; nodes: number[] }
  | { event: 'note'; step: number; text: string }
  /** Said every few seconds while nothing else is: what the plan waits for, and until when. */
  | { event: 'waiting'; step: number; text: string }
  | { event: 'started'; step: number; nodes: number[]; durationMs: number }
  | { event: 'paused'; step: number; pauseMs: number }
  | { event: 'halted'; step: number; nodes: number[]; code: HaltCode; reason: string }
  | { event: 'resumed'; step: number }
  | { event: 'skipped'; step: number; nodes: number[] }
  | { event: 'done'; restarted: number[]; skipped: number[] }
  | { event: 'aborted'; step: number; text: string };

export type RollInput =
  | { kind: 'start' }
  | { kind: 'observe'; obs: Observation }
  | { kind: 'restart-ok'; attempt: number; at: number }
  | { kind: 'restart-refused'; attempt: number; at: number; text: string }
  /** Sent, and the session ended or timed out before the reply: it may have run. */
  | { kind: 'restart-lost'; attempt: number; at: number; error: string }
  | { kind: 'resume' }
  | { kind: 'skip' }
  | { kind: 'abort' }
  | { kind: 'pause' };

export type RollEffect =
  /** `restart node v2` for these nodes (normal restart: no initial, no nostart, no abort, never force). */
  | { kind: 'restart'; nodes: number[]; attempt: number }
  /** Write the machine to the store before carrying out any effect after it. */
  | { kind: 'persist' }
  | { kind: 'emit'; event: RollEvent }
  /** Ask the status source now rather than at the next poll. */
  | { kind: 'observe' };
