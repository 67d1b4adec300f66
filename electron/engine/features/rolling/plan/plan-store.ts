import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import { dataNodesText, type ClusterIdentity } from '../cluster-identity.js';
import { halt } from '../execution/executor.js';
import type { RollMachine } from '../types.js';

const ids = z.array(z.number().int());
const group = z.union([z.number().int(), z.literal('none')]);
const PlanSchema = z.object({
  id: z.string(),
  cluster: z.string(),
  createdAt: z.number(),
  order: z.enum(['node-group', 'node-id']),
  pauseMs: z.number().nonnegative(),
  steps: z.array(ids),
  nodeGroups: z.array(z.object({ nodeId: z.number().int(), nodeGroup: group })),
  replicas: z.number().int().nullable(),
  manual: z.array(z.string()),
  limits: z.object({ leaveMs: z.number(), notStartedMs: z.number(), stepMs: z.number() }),
  checks: z.object({ backup: z.enum(['wait', 'halt']), redoLimitPct: z.number(), gcpLagMs: z.number(), allowUnchecked: z.boolean() }).optional(),
});
const ProgressSchema = z.object({ nodeId: z.number().int(), baseline: z.number().nullable(), left: z.boolean(), notStartedSince: z.number().nullable(), backAt: z.number().nullable() });
const RunSchema = z.object({
  step: z.number().int(),
  attempt: z.number().int(),
  send: z.enum(['in-flight', 'accepted', 'refused', 'lost']),
  sentAt: z.number(),
  answeredAt: z.number().nullable(),
  lostError: z.string().nullable(),
  nodes: z.array(ProgressSchema),
});
const PhaseSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('idle') }),
  z.object({ kind: z.literal('checking') }),
  z.object({ kind: z.literal('restarting'), attempt: z.number().int() }),
  z.object({ kind: z.literal('waiting') }),
  z.object({ kind: z.literal('pausing'), until: z.number() }),
  z.object({ kind: z.literal('halted'), code: z.enum(['unsafe', 'refused', 'timeout', 'unreachable', 'operator', 'interrupted']), reason: z.string() }),
  z.object({ kind: z.literal('done') }),
  z.object({ kind: z.literal('aborted') }),
]);
const MachineSchema = z.object({
  plan: PlanSchema,
  phase: PhaseSchema,
  step: z.number().int(),
  run: RunSchema.nullable(),
  sent: ids,
  results: z.array(z.object({ step: z.number().int(), nodes: ids, outcome: z.enum(['restarted', 'skipped']), durationMs: z.number().nullable(), sentAt: z.number().nullable().default(null) })),
  holdAfterStep: z.boolean(),
  nextAttempt: z.number().int(),
  checkWait: z.string().nullable().optional(),
});
const Body = { machine: MachineSchema.nullable(), history: z.array(z.number()).default([]), runId: z.string().nullable().default(null) };
/** Version 1 was written before plans were kept per cluster: it does not say whose plan it holds. */
const FileSchema = z.discriminatedUnion('version', [
  z.object({ version: z.literal(1), ...Body }),
  z.object({ version: z.literal(2), cluster: z.object({ key: z.string(), label: z.string() }), ...Body }),
]);

/** How many step durations the ETA of the next plan is taken from. */
const HISTORY = 20;

export interface StoredRolling {
  /** The last plan, as it was when last written; an unfinished one comes back halted (see `resumeAfterRestart`). */
  machine: RollMachine | null;
  /** Durations of completed steps (ms), oldest first, for the next plan's ETA. */
  history: number[];
  /** The plan's run (the engine's own, or one marked with `rolling-restart --mark-url`), so a resume marks the same. */
  runId?: string | null;
}

/**
 * What the file holds for this cluster: nothing, its own state, or a plan that is not this cluster's (another
 * cluster's, or one written without its cluster's identity), in words and whether that plan was still in progress.
 */
export type LoadedRolling = { kind: 'none' } | { kind: 'ours'; stored: StoredRolling } | { kind: 'foreign'; why: string; active: boolean };

const ACTIVE = new Set(['checking', 'restarting', 'waiting', 'pausing']);
const UNFINISHED = new Set([...ACTIVE, 'halted']);

/**
 * One cluster's plan on disk, one JSON file written whole to a temporary file and renamed over the old one, so a
 * crash (or SIGKILL) at any moment leaves either the previous or the new state, never half of one. The file names the
 * cluster it belongs to; a file of another cluster is never read as this one's.
 */
export class PlanStore {
  constructor(
    readonly file: string,
    readonly cluster: ClusterIdentity,
  ) {}

  /** `none` when there is no file; a file that cannot be read is an error that names it (nothing is overwritten). */
  load(): LoadedRolling {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'none' };
      throw err;
    }
    const parsed = FileSchema.safeParse(JSON.parse(text));
    if (!parsed.success) throw new Error(`${this.file}: not a rolling-restart state file (${parsed.error.issues[0]?.message ?? 'invalid'})`);
    const f = parsed.data;
    const m = f.machine;
    const active = m !== null && UNFINISHED.has(m.phase.kind);
    const plan = m ? `a plan made for ${m.plan.cluster} (${dataNodesText(m.plan.steps.flat())}, ${m.phase.kind} at step ${m.step + 1} of ${m.plan.steps.length})` : 'no plan';
    if (f.version === 1) {
      return { kind: 'foreign', active, why: `${this.file} was written by an earlier ndbtop that did not record which cluster it belongs to; it holds ${plan}, which is not applied to ${this.cluster.label}` };
    }
    if (f.cluster.key !== this.cluster.key) {
      return { kind: 'foreign', active, why: `${this.file} belongs to ${f.cluster.label}, not to ${this.cluster.label}; it holds ${plan}, which is not applied here` };
    }
    return { kind: 'ours', stored: { machine: m, history: f.history, runId: f.runId } };
  }

  save(state: StoredRolling): void {
    mkdirSync(dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify({ version: 2, cluster: this.cluster, machine: state.machine, history: state.history.slice(-HISTORY), runId: state.runId ?? null }));
    renameSync(tmp, this.file);
  }
}

/**
 * A plan read back by a new ndbtop: whatever it was doing is over (its polls, its pause, the reply it waited for),
 * so an active plan is halted at the step it was in. A restart that was in flight may have run: it is never sent
 * again, and the resume watches for it from now.
 */
export function resumeAfterRestart(m: RollMachine, at: number): RollMachine {
  if (!ACTIVE.has(m.phase.kind)) return m;
  const run = m.run && m.run.send === 'in-flight' ? { ...m.run, send: 'lost' as const, answeredAt: at, lostError: 'ndbtop stopped before the reply' } : m.run;
  const sent = run ? ` (its restart of node ${run.nodes.map((p) => p.nodeId).join(', ')} was sent and is not sent again)` : '';
  return halt({ ...m, run }, 'interrupted', `ndbtop stopped during step ${m.step + 1} (${m.phase.kind})${sent}: resume, skip or abort`).machine;
}
