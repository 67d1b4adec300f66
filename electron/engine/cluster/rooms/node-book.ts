import type { NodeGroupView, NodeStatus } from '../../../contract/schemas/node.js';
import { sameValue } from '../../../contract/page-safe/same-value.js';
import type { ClusterEvent, NodeState } from '../../../../native-mgm/index.js';
import type { ConfigState } from '../../facts/config/config-state.js';
import { firstStatusNote } from '../../facts/observations/engine-notes.js';
import { FailureReports } from '../failure-reports.js';
import { nodeGroups, type GroupMember } from '../node-groups.js';
import { isConnected, isUp } from '../node-status.js';
import type { TrackerInput } from '../tracker-input.js';
import type { ClusterLog } from './cluster-log.js';
import type { Room, StatusChange } from './room.js';
import type { ViewChanges } from './view-changes.js';

export interface NodeRecord {
  state: NodeState;
  status: NodeStatus;
  startPhase: number;
  statusSince: number;
  /** When an event last set the status: a poll asked before that is older news for this node. */
  eventStatusAt: number;
  nodeGroup: number | 'none' | null;
  /** The status is the one ndbtop first saw: it began before ndbtop watched, so `statusSince` is only a bound. */
  beforeWatch: boolean;
}

interface Grouping {
  epoch: number;
  reads: number;
  members: readonly GroupMember[];
  groups: NodeGroupView[];
}

/** Where the node records tell the other rooms what they changed. */
export interface NodeBookListener {
  status(change: StatusChange): void;
  forget(nodeId: number): void;
}

/**
 * The node records: each node's poll line and its status, which polls and events both set (events are the source
 * of truth: a poll asked before the last event for a node does not override its status), the single-user API node
 * and when the cluster was last polled. Every status change goes to the other rooms as a StatusChange. One data
 * node's word that another failed is a claim (`FailureReports`) until arbitration, the node itself, the management
 * server or a poll settles it: after a split the losing half reports the winners failed too.
 */
export class NodeBook implements Room {
  private readonly nodes = new Map<number, NodeRecord>();
  private readonly failures = new FailureReports();
  sampledAt: number | null = null;
  singleUserApi: number | null = null;
  private grouped: Grouping | null = null;

  constructor(
    private readonly changes: ViewChanges,
    private readonly log: ClusterLog,
    private readonly config: ConfigState,
    private readonly listener: NodeBookListener,
  ) {}

  input(input: TrackerInput): void {
    if (input.kind === 'status') this.applyStatus(input.nodes, input.requestedAt, input.t);
  }

  event(e: ClusterEvent): boolean {
    const f = e.fields;
    const src = e.sourceNodeId;
    const at = e.receivedAt;
    switch (e.name) {
      case 'NDBStopStarted':
        this.setStatus(src, 'SHUTTING_DOWN', 0, at);
        break;
      case 'NDBStopForced':
        this.setStatus(src, 'NO_CONTACT', 0, at);
        break;
      case 'Disconnected':
        // The management server's own link (spec §6.6.1); a data node's is its view of another, a claim like NODE_FAILREP.
        if (this.nodes.get(src)?.state.type === 'MGM') this.setStatus(f.node ?? 0, 'NO_CONTACT', 0, at);
        else this.reportFailed(src, f.node ?? 0, at);
        break;
      case 'NODE_FAILREP':
        this.reportFailed(src, f.failed_node ?? 0, at);
        break;
      case 'ArbitResult':
        for (const id of this.failures.arbitrated(src, f.code ?? 0)) this.setStatus(id, 'NO_CONTACT', 0, at);
        break;
      case 'Connected':
        this.onConnected(src, f.node ?? 0, at);
        break;
      case 'NDBStartStarted':
        if (this.wentDown(src)) this.setStatus(src, 'STARTING', 0, at);
        break;
      case 'StartPhaseCompleted':
        if (this.wentDown(src)) this.setStatus(src, 'STARTING', f.phase ?? 0, at);
        break;
      case 'NDBStartCompleted':
        this.setStatus(src, 'STARTED', 0, at);
        break;
      case 'SingleUser':
        this.onSingleUser(f.type ?? -1, f.node_id ?? null, at);
        break;
    }
    return false;
  }

  records(): NodeRecord[] {
    return [...this.nodes.values()];
  }

  dataNodeIds(): number[] {
    return this.records()
      .filter((n) => n.state.type === 'NDB')
      .map((n) => n.state.nodeId);
  }

  /** API nodes (mysqld and other clients) connected now: the benchmark clients among them offer the load. */
  connectedApiNodes(): number {
    let n = 0;
    for (const r of this.nodes.values()) if (r.state.type === 'API' && r.status === 'CONNECTED') n++;
    return n;
  }

  /** The group `get status` last showed, else the configured one (a node never seen up prints a placeholder). */
  groupOf(n: NodeRecord): NodeRecord['nodeGroup'] {
    return n.nodeGroup ?? this.config.nodeGroup(n.state.nodeId);
  }

  /** The data nodes as node groups see them; the same array until the epoch moves or a configuration is read. */
  members(): readonly GroupMember[] {
    return this.grouping().members;
  }

  /** The node groups of `members()`, made as often as they are. */
  groups(): NodeGroupView[] {
    return this.grouping().groups;
  }

  /**
   * What members and groups show moves only with the epoch (a status or group changed, a node came or went) or
   * the configuration (groups of nodes never seen up, NoOfReplicas): every push and poll reads them, so they are
   * made once for each, not 144 members and 72 groups anew each time.
   */
  private grouping(): Grouping {
    const epoch = this.changes.epoch;
    const reads = this.config.reads;
    if (this.grouped?.epoch !== epoch || this.grouped.reads !== reads) {
      const members = this.records()
        .filter((n) => n.state.type === 'NDB')
        .map((n) => ({ nodeId: n.state.nodeId, status: n.status, nodeGroup: this.groupOf(n) }));
      this.grouped = { epoch, reads, members, groups: nodeGroups(members, this.config.replicas()) };
    }
    return this.grouped;
  }

  /** Whether the management server has contact with the node (a node not polled yet has none). */
  isConnected(id: number): boolean {
    const status = this.nodes.get(id)?.status;
    return status !== undefined && isConnected(status);
  }

  masterId(): number | null {
    return this.records().find((n) => n.state.isMaster && n.status !== 'NO_CONTACT')?.state.nodeId ?? null;
  }

  private applyStatus(states: readonly NodeState[], requestedAt: number, at: number): void {
    if (this.nodes.size === 0 && states.length > 0) this.log.note(firstStatusNote(states, at));
    const seen = new Set<number>();
    for (const s of states) {
      seen.add(s.nodeId);
      let rec = this.nodes.get(s.nodeId);
      if (!rec) {
        rec = { state: s, status: s.status, startPhase: s.startPhase, statusSince: at, eventStatusAt: 0, nodeGroup: null, beforeWatch: true };
        this.nodes.set(s.nodeId, rec);
        this.changes.all();
        this.listener.status({ nodeId: s.nodeId, type: s.type, previous: null, status: s.status, phase: s.startPhase, at });
      }
      // Every poll reads every node; most lines are what they were.
      if (!sameValue(rec.state, s)) {
        rec.state = s;
        this.changes.node(s.nodeId);
      }
      if (s.nodeGroup !== null && s.nodeGroup !== rec.nodeGroup) {
        rec.nodeGroup = s.nodeGroup;
        this.changes.all();
      }
      if (rec.eventStatusAt <= requestedAt) this.setStatus(s.nodeId, s.status, s.startPhase, at, false);
      this.failures.told(s.nodeId, isUp(s.status), requestedAt);
    }
    for (const id of [...this.nodes.keys()]) {
      if (seen.has(id)) continue;
      this.changes.all();
      this.changes.forget(id);
      this.nodes.delete(id);
      this.failures.told(id, false);
      this.listener.forget(id);
    }
    const single = states.find((s) => s.isSingleUser === true && s.type === 'API');
    if (single) this.singleUserApi = single.nodeId;
    else if (states.some((s) => s.isSingleUser !== null)) this.singleUserApi = null;
    this.sampledAt = at;
  }

  /**
   * A start's progress can only follow a node's going down, which its own events (NDBStopStarted, NDBStopForced),
   * the management server's Disconnected, a poll, or another node's report of its failure say first (its start then
   * settles that report). Events and polls travel on different sessions: a start phase written just before the node
   * came up can be read after a poll that already saw it STARTED, and must not take the node back to STARTING (a
   * failure of a node that never went down, raised and resolved within a poll).
   */
  private wentDown(id: number): boolean {
    return !this.upNow(id) || this.failures.reported(id);
  }

  private upNow(id: number): boolean {
    const status = this.nodes.get(id)?.status;
    return status !== undefined && isUp(status);
  }

  /** Only a surviving node reports a failure (spec §6.6.4): a node already down, or not up yet, is no witness. */
  private reportFailed(reporter: number, failed: number, at: number): void {
    if (this.upNow(reporter) && this.nodes.has(failed)) this.failures.report(reporter, failed, at);
  }

  /** The one place a node's status changes, whether a poll or an event tells it. */
  private setStatus(id: number, status: NodeStatus, phase: number, at: number, fromEvent = true): void {
    const rec = this.nodes.get(id);
    if (!rec) return;
    if (fromEvent) {
      rec.eventStatusAt = at;
      this.failures.told(id, isUp(status));
    }
    if (rec.status === status && rec.startPhase === phase) return;
    const previous = rec.status;
    this.changes.all();
    rec.status = status;
    rec.startPhase = phase;
    if (previous !== status) {
      rec.statusSince = at;
      rec.beforeWatch = false;
    }
    // Start phases tick by every second during a restart and can wait for a slot; down and up cannot.
    if (rec.state.type === 'NDB' && isUp(previous) !== isUp(status)) this.changes.urgent();
    this.listener.status({ nodeId: id, type: rec.state.type, previous, status, phase, at });
  }

  /**
   * The link from `src` to `id` is up (spec §6.6.1). A data node's and a management server's status is the management
   * server's own link (§5.3; a fallen data node is NOT_STARTED once it connected again, §8.3): only the management
   * server's report says so, a data node's link to it says nothing of it. An API node's status is a live data node's
   * link to it (§5.3), so either source's report counts.
   */
  private onConnected(src: number, id: number, at: number): void {
    const rec = this.nodes.get(id);
    if (!rec) return;
    if (rec.state.type === 'API') return this.setStatus(id, 'CONNECTED', 0, at);
    if (this.nodes.get(src)?.state.type !== 'MGM') return;
    if (rec.state.type === 'MGM') this.setStatus(id, 'CONNECTED', 0, at);
    else if (rec.status === 'NO_CONTACT') this.setStatus(id, 'NOT_STARTED', 0, at);
  }

  private onSingleUser(type: number, apiNode: number | null, at: number): void {
    const entered = type === 1;
    if (type !== 1 && type !== 2) return;
    this.singleUserApi = entered ? apiNode : null;
    for (const [id, rec] of this.nodes) {
      if (rec.state.type !== 'NDB' || !isUp(rec.status)) continue;
      this.setStatus(id, entered ? 'SINGLE USER MODE' : 'STARTED', 0, at);
    }
  }
}
