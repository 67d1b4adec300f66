import { z } from 'zod';

const Millis = z.number().int().nonnegative();
const NodeIds = z.array(z.number().int().min(1).max(255));

/** One data node's restart in a round: from leaving the up state until it was up again. */
export const NodeRestartSchema = z.object({
  nodeId: z.number().int().min(1).max(255),
  from: Millis,
  /** null while the node is still down or starting. */
  to: Millis.nullable(),
  /** The node was already restarting when ndbtop first saw it: `from` is then, and the restart began earlier. */
  underWayAtConnect: z.boolean().optional(),
});

/**
 * The engine's own record of the current (or just finished) rolling restart, kept from every status change it saw,
 * so progress, order and ETA never depend on how much of the timeline a page asked for.
 */
export const RollingRestartSchema = z.object({
  /**
   * 'observed': ndbtop saw data nodes leave the up state and come back, whoever restarted them; 'planned': a
   * rolling-restart conductor drives the round (its nodes restart in its order).
   */
  source: z.enum(['observed', 'planned']),
  startedAt: Millis,
  /** Each node's restart in this round, in the order they went down. */
  restarts: z.array(NodeRestartSchema),
  /** Restarted in this round and up again. */
  done: NodeIds,
  /** Data nodes not up now. */
  inProgress: NodeIds,
  /** Data nodes up and not restarted yet in this round. */
  remaining: NodeIds,
  /** Suggested next: none while a restart is under way, else the lowest remaining node whose node group can lose it. */
  next: z.number().int().min(1).max(255).nullable(),
  complete: z.boolean(),
  /** One node's restart and the wait before the next, from restarts seen whole; null before the first. */
  paceMs: z.number().int().nonnegative().nullable(),
  /** When the round should be over at that pace, counted from the last restart finished; null when unknown or done. */
  etaAt: Millis.nullable(),
  /** The span it may fall in: widened while few restarts are timed whole, then their spread; null with etaAt. */
  etaRange: z.object({ from: Millis, to: Millis }).nullable().default(null),
  /** How many restarts (seen whole) and the times between them the ETA rests on. */
  etaBasis: z.number().int().nonnegative().default(0),
});

export type NodeRestart = z.infer<typeof NodeRestartSchema>;
export type RollingRestart = z.infer<typeof RollingRestartSchema>;

const PlanOrder = z.enum(['node-group', 'node-id']);

/** One step of a rolling restart ndbtop conducts: its nodes in parallel, one node of a node group at most. */
export const RollingStepViewSchema = z.object({
  /** 1-based, as the CLI and the log count. */
  step: z.number().int().min(1),
  nodes: NodeIds,
  state: z.enum(['done', 'skipped', 'running', 'next', 'pending']),
  /** From the send until its last node was STARTED again; null until then. */
  durationMs: Millis.nullable(),
  /** Why the step could not start now, checked against the cluster as last observed (empty: it could). */
  hazards: z.array(z.string()),
  /** The NDB checks of the next step now, each with its figure (empty for the other steps, and in older recordings). */
  checks: z
    .array(z.object({ check: z.enum(['backup', 'redo', 'gcp', 'arbitrator']), verdict: z.enum(['pass', 'wait', 'halt', 'unchecked']), figure: z.string().nullable(), text: z.string() }))
    .default([]),
  /**
   * The next step while the one before is still settling: what it waits for, once ("waiting for node 2 to finish
   * starting before step 2"), instead of hazards that are only the running step's own nodes coming back.
   */
  waiting: z.string().nullable().default(null),
  /** The running step's nodes: restart sent, seen leaving STARTED, STARTED again (when). */
  progress: z.array(z.object({ nodeId: z.number().int().min(1).max(255), left: z.boolean(), backAt: Millis.nullable() })),
});

/** A rolling restart the engine conducts (planned, running, halted or over), as every page and HTTP client sees it. */
export const RollingPlanViewSchema = z.object({
  planId: z.string(),
  createdAt: Millis,
  order: PlanOrder,
  pauseMs: Millis,
  /** `planned`: shown, not started; the rest are the executor's phases. */
  state: z.enum(['planned', 'checking', 'restarting', 'waiting', 'pausing', 'halted', 'done', 'aborted']),
  halt: z.object({ code: z.enum(['unsafe', 'refused', 'timeout', 'unreachable', 'operator', 'interrupted']), reason: z.string() }).nullable(),
  /** 1-based; steps.length + 1 once done. */
  currentStep: z.number().int().min(1),
  steps: z.array(RollingStepViewSchema),
  /** What ndbtop does not do itself (management servers), in words. */
  manual: z.array(z.string()),
  eta: z.object({
    /** Expected length of one step; null until something is known. */
    stepMs: Millis.nullable(),
    /** When the whole plan should be done (the running step from its nodes' phases where ndbinfo has them). */
    finishAt: Millis.nullable(),
    /** The span the finish may fall in, given how little is timed (from = to once enough is); null with finishAt. */
    finishRange: z.object({ from: Millis, to: Millis }).nullable().default(null),
    /** How many step (or restart) timings the ETA rests on. */
    basis: z.number().int().nonnegative().default(0),
    source: z.enum(['ndbinfo', 'previous restarts', 'none']),
  }),
  /** The NDB checks' settings the plan was made with; absent from older recordings. */
  checks: z.object({ backup: z.enum(['wait', 'halt']), redoLimitPct: z.number(), gcpLagMs: z.number(), allowUnchecked: z.boolean() }).optional(),
  /**
   * What happened, oldest first (bounded). `text` names no path of the server (serve's viewers read it); `detail`,
   * when the line named one, is the same line with it, for the operator at the server only (serve never sends it).
   */
  log: z.array(z.object({ at: Millis, text: z.string(), detail: z.string().optional() })),
  /** The run this rolling restart is recorded as (its steps are phases); null when none could be started. */
  runId: z.string().nullable(),
  updatedAt: Millis,
});

const PlanRef = z.object({ clusterId: z.string().optional(), planId: z.string().min(1).max(100) });

export const RollingRequestSchemas = {
  plan: z.object({
    clusterId: z.string().optional(),
    /** Data nodes to restart; all when absent. */
    nodes: z.array(z.number().int().min(1).max(255)).min(1).max(255).optional(),
    order: PlanOrder.default('node-group'),
    pauseMs: z.number().int().min(0).max(3_600_000).default(0),
    /** The NDB checks before each step; the defaults (wait for a backup, redo 60 %, 10 s, halt when unchecked) when absent. */
    checks: z
      .object({
        backup: z.enum(['wait', 'halt']).optional(),
        redoLimitPct: z.number().min(1).max(100).optional(),
        gcpLagMs: z.number().int().min(1000).max(3_600_000).optional(),
        allowUnchecked: z.boolean().optional(),
      })
      .optional(),
  }),
  ref: PlanRef,
  resume: PlanRef.extend({ skip: z.boolean().default(false) }),
};

export type RollingStepView = z.infer<typeof RollingStepViewSchema>;
export type RollingPlanView = z.infer<typeof RollingPlanViewSchema>;
