import type { ClusterState } from '../state/cluster-state.js';
import type { DataNode } from '../state/node-state.js';
import { TIMINGS } from '../lifecycle/timings.js';

/** `Dbdih::NodeRecoveryStatus` numbers of the statuses a restart goes through, in order (ndbinfo/schema's NODE_RECOVERY_STATUS). */
const S = {
  failed: 2,
  failureCompleted: 3,
  allocatedNodeId: 4,
  includedInHb: 5,
  ndbcntrStartWait: 6,
  ndbcntrStarted: 7,
  startPermitted: 8,
  waitLcpToCopyDict: 9,
  copyDict: 10,
  includeNode: 11,
  localRecoveryStarted: 12,
  restoreFragCompleted: 13,
  undoDdCompleted: 14,
  executeRedoCompleted: 15,
  copyFragmentsStarted: 16,
  waitLcpForRestart: 17,
  waitSumaHandover: 18,
  completed: 19,
} as const;

/**
 * Where in start phase 5 (from phase 4 done to phase 5 done: the copy of the dictionary, local recovery, the copy of
 * the fragments from a live node) each status is reached, as a share of the phase. No disk data: its undo takes no time.
 */
const PHASE5_SHARES: ReadonlyArray<readonly [status: number, share: number]> = [
  [S.copyDict, 0.08], [S.includeNode, 0.13], [S.localRecoveryStarted, 0.15], [S.restoreFragCompleted, 0.4],
  [S.undoDdCompleted, 0.4], [S.executeRedoCompleted, 0.55], [S.copyFragmentsStarted, 0.7], [S.waitLcpForRestart, 1],
];

/** How long phase 5 of a node restart takes in the simulator (its data copy, then the phase itself), in sim ms. */
const PHASE5_MS = TIMINGS.dataCopy + TIMINGS.phase;

/** The phase columns of restart_info, each the time between reaching two statuses (`from` → `to`). */
const COLUMN_SPANS: ReadonlyArray<readonly [from: number, to: number]> = [
  [2, 3], [3, 4], [4, 5], [5, 6], [6, 7], [7, 8], [8, 9], [9, 10], [10, 11], [11, 12],
  // secs_for_local_recovery spans the four that follow it (restore, undo, redo, index rebuild).
  [12, 16],
  [12, 13], [13, 14], [14, 15], [15, 16], [16, 17], [17, 18], [18, 19],
];
/** Column index of secs_for_local_recovery, the one that overlaps others. */
export const LOCAL_RECOVERY_COLUMN = 10;

export interface RestartRecord {
  /** NodeRecoveryStatus number of the last status reached. */
  status: number;
  /** Whole seconds per phase column, in restart_info's order; phases not reached yet are 0. */
  phaseSecs: number[];
  totalSecs: number;
}

/**
 * Each data node's most recent restart, as DBDIH times it for ndbinfo's restart_info: from the node's failure (a
 * crash or the stop of a restart) through its start phases to STARTED. Times are sim time; a row stays after the
 * restart completed until the next one begins.
 */
export class RestartLog {
  /** Per node: sim ms at which each status (index) was reached. */
  private readonly reached = new Map<number, number[]>();
  /** Nodes in phase 5 (phase 4 completed), whose statuses come in turn as sim time passes. */
  private readonly inPhase5 = new Set<number>();

  constructor(private readonly cluster: ClusterState) {
    cluster.onStatusChange((node) => this.follow(node));
  }

  private follow(node: DataNode): void {
    const now = this.cluster.clock.now();
    if (node.status === 'NO_CONTACT') {
      // Failure handling in the simulator completes as the node leaves (NodeFailCompleted goes out at once).
      const times: number[] = [];
      times[S.failed] = now;
      times[S.failureCompleted] = now;
      this.reached.set(node.id, times);
      this.inPhase5.delete(node.id);
      return;
    }
    const times = this.reached.get(node.id);
    if (!times) return;
    const reach = (status: number, at = now): void => {
      if (times[status] === undefined) times[status] = at;
    };
    if (node.status === 'NOT_STARTED') reach(S.allocatedNodeId);
    if (node.status === 'STARTED') {
      reach(S.waitSumaHandover);
      reach(S.completed);
    }
    if (node.status !== 'STARTING') return;
    const phase = node.startPhase;
    if (phase >= 1) reach(S.includedInHb);
    if (phase >= 2) reach(S.ndbcntrStartWait);
    if (phase >= 3) reach(S.ndbcntrStarted);
    if (phase >= 4) {
      reach(S.startPermitted);
      reach(S.waitLcpToCopyDict);
      if (phase === 4) this.inPhase5.add(node.id);
    }
    if (phase >= 5) {
      // Phase 5 is over: whatever status its planned course had not reached yet is reached in order up to now.
      this.reachPhase5(times, now, true);
      this.inPhase5.delete(node.id);
    }
    if (phase >= 8) reach(S.waitSumaHandover);
  }

  /**
   * Phase 5's statuses (dictionary copy, local recovery, copy of the fragments) reached while it runs, at their
   * share of its planned length, so restart_info read during the data copy shows the restart moving through them.
   * `over`: phase 5 completed now, so every status left is reached, spread over the phase as it really ran.
   */
  private reachPhase5(times: number[], now: number, over: boolean): void {
    const from = times[S.waitLcpToCopyDict];
    if (from === undefined) return;
    const length = over ? now - from : PHASE5_MS;
    let last = from;
    for (const [status, share] of PHASE5_SHARES) {
      // The wait for a local checkpoint begins only once phase 5 is over (a stalled start stays before it).
      if (!over && share >= 1) break;
      const at = Math.min(now, Math.max(last, from + length * share));
      if (times[status] === undefined && (over || at < now)) times[status] = at;
      last = times[status] ?? at;
    }
  }

  /** The node's last restart, or null if it has not restarted since the simulator began. */
  record(nodeId: number): RestartRecord | null {
    const times = this.reached.get(nodeId);
    if (!times) return null;
    if (this.inPhase5.has(nodeId)) this.reachPhase5(times, this.cluster.clock.now(), false);
    const start = times[S.failed]!;
    let status: number = S.failed;
    for (let s = S.failed; s <= S.completed; s++) if (times[s] !== undefined) status = s;
    // A status passed without being seen (a start without NOT_STARTED, say) took no time: it is reached with the next.
    const at: number[] = [];
    for (let s = status; s >= S.failed; s--) at[s] = times[s] ?? at[s + 1]!;
    // Whole seconds by rounding each moment, not each span, so the spans add up to the total exactly.
    const secs = (s: number): number | null => (at[s] === undefined ? null : Math.round((at[s]! - start) / 1000));
    const phaseSecs = COLUMN_SPANS.map(([from, to]) => {
      const a = secs(from);
      const b = secs(to);
      return a === null || b === null ? 0 : b - a;
    });
    return { status, phaseSecs, totalSecs: secs(status)! };
  }

  nodesWithRestarts(): number[] {
    return [...this.reached.keys()].sort((a, b) => a - b);
  }
}
