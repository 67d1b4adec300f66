import type { NdbinfoNode } from '../../../contract/schemas/ndbinfo.js';
import type { NodeView, RestartProgress, RestartState } from '../../../contract/schemas/node.js';
import { sameValue } from '../../../contract/page-safe/same-value.js';
import { isConnected } from '../node-status.js';
import { ndbinfoRestartFact, restartState } from '../restart-state.js';
import type { ConfigState } from '../../facts/config/config-state.js';
import { safeToStop, type GroupMember } from '../node-groups.js';
import type { LoadRoom } from './load-room.js';
import type { NodeBook, NodeRecord } from './node-book.js';
import type { RestartRoom } from './restart-room.js';
import type { Room } from './room.js';
import type { ViewChanges } from './view-changes.js';

/** A node's view as last built, and what it was built from. */
interface CachedView {
  epoch: number;
  stamp: number;
  stale: boolean | null;
  /** The node's ndbinfo figures the view was built with (replaced, never changed, when read anew). */
  inside: NdbinfoNode | undefined;
  view: NodeView;
}

/** When the management server last moved the node on: its status change, or the start phase it last completed. */
function mgmSince(statusSince: number, restart: RestartProgress | null): number {
  const last = restart?.phases.at(-1);
  return Math.max(statusSince, last ? last.startedAt + (last.durationMs ?? 0) : 0);
}

/**
 * Each node's view as the snapshot shows it, from the node records, rates and memory, restart progress and the
 * configuration. A view is rebuilt only when something it shows changed (ViewChanges), so a push under load
 * rebuilds the few nodes that reported and the delta compares the rest by identity.
 */
export class NodeViews implements Room {
  private readonly cache = new Map<number, CachedView>();
  private order: { members: readonly GroupMember[]; memberOf: Map<number, GroupMember>; records: NodeRecord[] } | null = null;

  constructor(
    private readonly changes: ViewChanges,
    private readonly nodes: NodeBook,
    private readonly load: LoadRoom,
    private readonly restarts: RestartRoom,
    private readonly config: ConfigState,
    /** The management server was lost or stopped answering: no node is in contact as far as we can tell. */
    private readonly sourceLost: () => boolean,
    /** Tests turn reuse off to check reused views against fresh ones. */
    private readonly reuse: boolean,
    /** A data node's ndbinfo figures: its restart_info row joins the start phase in the node's one restart state. */
    private readonly inside: (nodeId: number) => NdbinfoNode | undefined,
  ) {}

  forget(nodeId: number): void {
    this.cache.delete(nodeId);
  }

  /** Every node's view, by id. */
  all(members: readonly GroupMember[], now: number): NodeView[] {
    // A new members array comes with any change to the nodes there are (NodeBook.members): until then, the same order.
    if (this.order?.members !== members) {
      const memberOf = new Map(members.map((m) => [m.nodeId, m]));
      this.order = { members, memberOf, records: this.nodes.records().sort((a, b) => a.state.nodeId - b.state.nodeId) };
    }
    const { memberOf, records } = this.order;
    return records.map((n) => this.view(n, memberOf.get(n.state.nodeId), members, now));
  }

  private view(n: NodeRecord, member: GroupMember | undefined, members: readonly GroupMember[], now: number): NodeView {
    const s = n.state;
    const id = s.nodeId;
    // With the management server gone every node's figures are from its last answer: none is shown as current.
    const connected = isConnected(n.status) && !this.sourceLost();
    const rates = this.load.nodeRates(id);
    const restart = this.restarts.restart(id, now);
    const stale = rates && (!connected || !this.load.isFresh(id, now));
    const inside = this.inside(id);
    const stamp = this.changes.stamp(id);
    const cached = this.cache.get(id);
    // A restart's estimate moves with the clock: never reused.
    const reusable = this.reuse && cached !== undefined && restart === null && cached.epoch === this.changes.epoch && cached.stamp === stamp && cached.stale === stale;
    // The restart state follows the node's status (a change of it moves the epoch) and its restart_info row: with
    // the same row the same state, so the idle cluster's every push builds none of them.
    if (reusable && cached.inside === inside) return cached.view;
    const restartNow = s.type === 'NDB' ? this.restartState(n, restart, connected, inside) : null;
    if (reusable && sameValue(cached.view.restartState, restartNow)) {
      cached.inside = inside;
      return cached.view;
    }
    const view: NodeView = {
      nodeId: id,
      type: s.type,
      status: n.status,
      statusRaw: n.status === s.status ? s.statusRaw : n.status,
      startPhase: n.startPhase,
      nodeGroup: s.type === 'NDB' ? this.nodes.groupOf(n) : null,
      version: s.version,
      versionRaw: s.versionRaw,
      mysqlVersion: s.mysqlVersion,
      address: s.address,
      connectCount: s.connectCount,
      dynamicId: s.dynamicId,
      isSingleUser: s.isSingleUser,
      isMaster: s.isMaster && n.status !== 'NO_CONTACT',
      statusSince: n.statusSince,
      restart,
      restartState: restartNow,
      // A node we cannot reach gets no verdict: "safe to stop" on a dead node reads as "all is well".
      safeToStop: s.type === 'NDB' && member && connected ? safeToStop(member, members, this.config.replicas()) : null,
      memory: this.load.memoryView(id, connected),
      rates: rates && { ...rates, stale: stale === true },
      lastSeenAt: connected ? null : isConnected(n.status) ? (this.nodes.sampledAt ?? n.statusSince) : n.statusSince,
      ...(n.beforeWatch ? { statusBeforeWatch: true } : {}),
      configured: this.config.configured(id),
    };
    this.cache.set(id, { epoch: this.changes.epoch, stamp, stale, inside, view });
    return view;
  }

  private restartState(n: NodeRecord, restart: RestartProgress | null, connected: boolean, inside: NdbinfoNode | undefined): RestartState {
    // A node out of contact is still current news ("not in contact") while the management server answers.
    return restartState({ status: n.status, startPhase: n.startPhase, since: mgmSince(n.statusSince, restart), current: connected || !this.sourceLost() }, ndbinfoRestartFact(inside));
  }
}
