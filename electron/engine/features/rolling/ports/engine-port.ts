import { activeCriticalAlerts } from '../../../../contract/page-safe/alert-kinds.js';
import type { ClusterConfigView } from '../../../../contract/schemas/config.js';
import type { ClusterSnapshot } from '../../../../contract/schemas/snapshot.js';
import type { EventStreamOptions } from '../../../../../native-mgm/client/event-stream.js';
import type { ClusterPort, RestartBounds, RestartOutcome } from './ports.js';
import { NdbEventWatch } from './ndb-watch.js';
import { arbitrationCandidates, arbitratorFact, backupFact, connectedNonData, redoFact } from './snapshot-facts.js';
import type { NdbFacts, Observation } from '../types.js';

/** What the engine gives a conductor it hosts: its own picture of the cluster and a way to send a restart. */
export interface EngineSide {
  snapshot(): ClusterSnapshot;
  /** The configuration as last read (ArbitrationRank); null before. */
  config(): ClusterConfigView | null;
  /** Where the checks' own event connection goes (global checkpoints, ArbitState); absent: those checks cannot be made. */
  events?: Omit<EventStreamOptions, 'filter'>;
  /** A normal restart of the nodes on a management session of its own (never the poll's). */
  restart(nodeIds: readonly number[], bounds: RestartBounds): Promise<RestartOutcome>;
  now(): number;
}

const LIVE = new Set(['live', 'failed-over']);

/**
 * The cluster as the engine already watches it: observations are its snapshot (the monitor's polls and events,
 * the alert book's critical alerts, ndbinfo's restart_info), so a hosted conductor opens no status connection of
 * its own. `sentAt` is the running step's send: ndbinfo counts a node's restart complete only when it was seen under
 * way after that (an older, completed restart must not complete the step).
 */
export class EngineClusterPort implements ClusterPort {
  /** When ndbinfo first said each node's restart was under way (cleared once it says complete). */
  private readonly underWaySince = new Map<number, number>();
  private readonly completedAfter = new Map<number, number>();
  /** Opened at the first observation (a plan exists), closed with the host. */
  private watch: NdbEventWatch | null = null;

  constructor(
    private readonly side: EngineSide,
    private readonly sentAt: () => number | null,
  ) {}

  async observe(): Promise<Observation> {
    const at = this.side.now();
    const snap = this.side.snapshot();
    const connected = LIVE.has(snap.connection.status);
    const criticalAlerts = activeCriticalAlerts(snap.alerts);
    if (!connected) return { at, connected, error: snap.connection.lastError ?? snap.connection.status, nodes: [], criticalAlerts, restartCompleted: null };
    const nodes = snap.nodes
      .filter((n) => n.type === 'NDB')
      .map((n) => ({ nodeId: n.nodeId, status: n.status, nodeGroup: n.nodeGroup, dynamicId: n.dynamicId, startPhase: n.startPhase }));
    return { at, connected, error: null, nodes, criticalAlerts, restartCompleted: this.restartCompleted(snap), ndb: this.ndbFacts(snap) };
  }

  close(): void {
    this.watch?.close();
    this.watch = null;
  }

  /** The NDB checks' facts: backup and redo from the engine's own derivations, the rest from the checks' events. */
  private ndbFacts(snap: ClusterSnapshot): NdbFacts {
    const events = this.side.events;
    if (events && !this.watch) this.watch = new NdbEventWatch(events, this.side.now);
    const config = this.side.config();
    return {
      backup: backupFact(snap),
      redo: redoFact(snap),
      gcp: this.watch?.gcp() ?? { known: false, why: 'no event connection for the checkpoint events' },
      arbitrator: arbitratorFact(config ? arbitrationCandidates(config.nodes) : null, connectedNonData(snap.nodes), this.watch?.arbitState() ?? null),
    };
  }

  restart(nodeIds: readonly number[], bounds: RestartBounds): Promise<RestartOutcome> {
    return this.side.restart(nodeIds, bounds);
  }

  /** Data nodes ndbinfo saw restart since the step's send and now reports complete; null without a live SQL source. */
  private restartCompleted(snap: ClusterSnapshot): number[] | null {
    if (snap.ndbinfo?.source.status !== 'up') return null;
    const sentAt = this.sentAt();
    const done: number[] = [];
    for (const n of snap.ndbinfoNodes ?? []) {
      const r = n.restart;
      if (!r) continue;
      if (r.inProgress) {
        if (!this.underWaySince.has(n.nodeId)) this.underWaySince.set(n.nodeId, r.at);
        this.completedAfter.delete(n.nodeId);
        continue;
      }
      const since = this.underWaySince.get(n.nodeId);
      if (since !== undefined) {
        this.underWaySince.delete(n.nodeId);
        this.completedAfter.set(n.nodeId, since);
      }
      const began = this.completedAfter.get(n.nodeId);
      if (began !== undefined && sentAt !== null && began >= sentAt) done.push(n.nodeId);
    }
    // A data node ndbinfo has no row for cannot be confirmed by it: the management server's word decides alone.
    const known = new Set((snap.ndbinfoNodes ?? []).filter((n) => n.restart).map((n) => n.nodeId));
    for (const n of snap.nodes) if (n.type === 'NDB' && !known.has(n.nodeId)) done.push(n.nodeId);
    return done.sort((a, b) => a - b);
  }
}
