/**
 * A node restart's phases as ndbinfo `restart_info` times them, in words an operator understands, and the time left
 * phase by phase from a baseline (the node's previous restart, or the other nodes of the same rolling restart).
 * zod-free and pure: the Restarts view and the engine's rolling-restart ETA both read it.
 */

/** One phase as the operator sees it: one or more `restart_info` columns (the server's order is a restart's). */
export interface OperatorPhase {
  key: string;
  words: string;
  columns: readonly string[];
}

// `secs_for_local_recovery` is left out: it spans restore, undo, redo and index rebuild, which are shown apart.
export const RESTART_PHASES: readonly OperatorPhase[] = [
  { key: 'failure', words: "handling the node's failure", columns: ['secs_to_complete_node_failure'] },
  { key: 'join', words: 'joining the cluster', columns: ['secs_to_allocate_node_id', 'secs_to_include_in_heartbeat_protocol', 'secs_until_wait_for_ndbcntr_master'] },
  { key: 'permission', words: 'waiting for permission', columns: ['secs_wait_for_ndbcntr_master', 'secs_to_get_start_permitted'] },
  { key: 'dictionary', words: 'copying the dictionary', columns: ['secs_to_wait_for_lcp_for_copy_meta_data', 'secs_to_copy_meta_data'] },
  { key: 'include', words: 'joining the checkpoints', columns: ['secs_to_include_node', 'secs_starting_node_to_request_local_recovery'] },
  { key: 'restore', words: 'restoring fragments', columns: ['secs_restore_fragments'] },
  { key: 'undo', words: 'applying the disk data undo log', columns: ['secs_undo_disk_data'] },
  { key: 'redo', words: 'executing the redo log', columns: ['secs_exec_redo_log'] },
  { key: 'index', words: 'rebuilding indexes', columns: ['secs_index_rebuild'] },
  { key: 'copy', words: 'copying data from live nodes', columns: ['secs_to_synchronize_starting_node'] },
  { key: 'lcp', words: 'waiting for a local checkpoint', columns: ['secs_wait_lcp_for_restart'] },
  { key: 'handover', words: 'handing over event subscriptions', columns: ['secs_wait_subscription_handover'] },
];

/**
 * The phase that runs once a `Dbdih::NodeRecoveryStatus` is reached (each column times the span from one status to
 * the next). RESTART_COMPLETED: none. The non-master views (NODE_GETTING_PERMIT …) are not mapped: no phase is named.
 */
const RUNNING_AFTER: Readonly<Record<string, string>> = {
  NODE_FAILED: 'failure',
  NODE_FAILURE_COMPLETED: 'join',
  ALLOCATED_NODE_ID: 'join',
  INCLUDED_IN_HB_PROTOCOL: 'join',
  NDBCNTR_START_WAIT: 'permission',
  NDBCNTR_STARTED: 'permission',
  START_PERMITTED: 'dictionary',
  WAIT_LCP_TO_COPY_DICT: 'dictionary',
  COPY_DICT_TO_STARTING_NODE: 'include',
  INCLUDE_NODE_IN_LCP_AND_GCP: 'include',
  LOCAL_RECOVERY_STARTED: 'restore',
  RESTORE_FRAG_COMPLETED: 'undo',
  UNDO_DD_COMPLETED: 'redo',
  EXECUTE_REDO_LOG_COMPLETED: 'index',
  COPY_FRAGMENTS_STARTED: 'copy',
  WAIT_LCP_FOR_RESTART: 'lcp',
  WAIT_SUMA_HANDOVER: 'handover',
};

/** What this module needs of a `restart_info` figure (the contract's NdbinfoRestart has it). */
export interface RestartTimes {
  at: number;
  phases: Readonly<Record<string, number>>;
  totalSecs: number;
  statusName?: string | null | undefined;
  inProgress?: boolean | undefined;
}

export type BaselineSource = 'previous restart' | 'other nodes of this rolling restart';

export interface PhaseRow {
  key: string;
  words: string;
  state: 'done' | 'running' | 'pending';
  /** Done: as restart_info timed it; running: so far; pending: null. */
  secs: number | null;
  /** Expected seconds from the baseline; null without one. */
  baselineSecs: number | null;
  /** Running (or done) much longer than its baseline. */
  overrun: boolean;
}

export interface PhaseProgress {
  rows: PhaseRow[];
  /** The phase running now; null when the restart completed or the status names none. */
  current: string | null;
  /** Seconds left by the baseline, phase by phase; null without a baseline or a known phase. */
  remainingSecs: number | null;
  etaAt: number | null;
  baselineFrom: BaselineSource | null;
}

/** "Much longer": twice the baseline and at least this many seconds over it (restart_info counts whole seconds). */
const OVERRUN_MARGIN_SECS = 10;

export function overran(secs: number, baseline: number | null): boolean {
  return baseline !== null && secs > Math.max(2 * baseline, baseline + OVERRUN_MARGIN_SECS);
}

const phaseSecs = (phases: Readonly<Record<string, number>>, p: OperatorPhase): number => p.columns.reduce((s, c) => s + (phases[c] ?? 0), 0);

/** A restart's phases with the time restart_info gave each, in the server's order; phases it spent no second in left out. */
export function phaseTimes(r: RestartTimes): Array<{ key: string; words: string; secs: number }> {
  return RESTART_PHASES.map((p) => ({ key: p.key, words: p.words, secs: phaseSecs(r.phases, p) })).filter((p) => p.secs > 0);
}

export function restartCompleted(r: RestartTimes): boolean {
  if (r.inProgress !== undefined) return !r.inProgress;
  return r.statusName === 'RESTART_COMPLETED';
}

/** The phase running now, by restart_info's status; null when completed or not known. */
export function runningPhase(r: RestartTimes): string | null {
  if (restartCompleted(r)) return null;
  return RUNNING_AFTER[r.statusName ?? ''] ?? null;
}

/** Mean seconds per phase over completed restarts; null per phase without any. */
export function baselineSecs(baselines: readonly RestartTimes[]): Map<string, number> | null {
  if (baselines.length === 0) return null;
  return new Map(RESTART_PHASES.map((p) => [p.key, baselines.reduce((s, b) => s + phaseSecs(b.phases, p), 0) / baselines.length]));
}

/**
 * Where a starting node stands: each phase done (its time), running (time so far) or pending, the baseline beside
 * each, and the time left. `startedAt`: when the node left the up state (the restart began), so the running phase's
 * time so far is the time since then less what restart_info already counted; without it, since the reading.
 * `current`: the phase running, when the node's restart state (both sources joined) knows it better than the row.
 */
export function phaseProgress(
  restart: RestartTimes,
  now: number,
  startedAt: number | null,
  baselines: readonly RestartTimes[],
  from: BaselineSource | null,
  current: string | null = runningPhase(restart),
): PhaseProgress {
  const base = baselineSecs(baselines);
  const done = restartCompleted(restart);
  const runningIndex = current === null ? -1 : RESTART_PHASES.findIndex((p) => p.key === current);
  const elapsed = Math.max(0, startedAt !== null ? (now - startedAt) / 1000 - restart.totalSecs : (now - restart.at) / 1000);
  let remaining: number | null = base && (done || runningIndex >= 0) ? 0 : null;
  const rows = RESTART_PHASES.map((p, i): PhaseRow => {
    const baseline = base?.get(p.key) ?? null;
    const state = done || (runningIndex >= 0 && i < runningIndex) ? 'done' : i === runningIndex ? 'running' : 'pending';
    const secs = state === 'done' ? phaseSecs(restart.phases, p) : state === 'running' ? Math.round(elapsed) : null;
    if (remaining !== null && baseline !== null) {
      if (state === 'running') remaining += Math.max(0, baseline - elapsed);
      else if (state === 'pending') remaining += baseline;
    }
    return { key: p.key, words: p.words, state, secs, baselineSecs: baseline === null ? null : Math.round(baseline * 10) / 10, overrun: secs !== null && overran(secs, baseline) };
  });
  return { rows, current, remainingSecs: remaining, etaAt: remaining === null ? null : Math.round(now + remaining * 1000), baselineFrom: base ? from : null };
}

/** A node's baseline: its own previous completed restart, else the completed restarts of the round's other nodes. */
export function baselineFor(
  nodeId: number,
  previous: RestartTimes | null | undefined,
  others: ReadonlyArray<{ nodeId: number; restart: RestartTimes | null }>,
): { baselines: RestartTimes[]; from: BaselineSource | null } {
  if (previous && restartCompleted(previous)) return { baselines: [previous], from: 'previous restart' };
  const round = others.filter((o) => o.nodeId !== nodeId && o.restart !== null && restartCompleted(o.restart)).map((o) => o.restart as RestartTimes);
  return round.length > 0 ? { baselines: round, from: 'other nodes of this rolling restart' } : { baselines: [], from: null };
}
