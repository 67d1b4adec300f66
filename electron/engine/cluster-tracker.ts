import type { Alert, EventView } from '../contract/events.js';
import { connectionNotes, firstStatusNote } from './observations/engine-notes.js';
import type { HistoryPoint, Timeline } from '../contract/history.js';
import type { NodeGroupView, NodeStatus, NodeView, Rates } from '../contract/node.js';
import type { ClusterSnapshot, ConnectionView } from '../contract/snapshot.js';
import type { ClusterEvent, NodeState } from '../../native-mgm/index.js';
import { AlertBook } from './alert-book.js';
import { BackupTracker } from './backup-tracker.js';
import { EventLog } from './event-log.js';
import { arbitCode, eventText } from './event-text.js';
import { ClusterHistory, type MetricValues } from './history.js';
import { MemoryTracker, type MemoryKind } from './memory.js';
import { nodeGroups, safeToStop, type GroupMember } from './node-groups.js';
import { isUp } from './node-status.js';
import { isFresh, RateTracker } from './rates.js';
import { RestartTracker } from './restart-tracker.js';
import { StatusTimeline } from './status-timeline.js';
import type { ConnectionInput, TrackerInput } from './tracker-input.js';

export interface TrackerListener {
  /** urgent: a data node went down or came up, an alert was raised, or a link changed; it must not wait for a push slot. */
  changed(urgent: boolean): void;
  events(views: EventView[]): void;
  alert(alert: Alert): void;
  history(point: HistoryPoint): void;
}

export interface TrackerOptions {
  connectstring: string;
  mode: ConnectionView['mode'];
  historySeconds: number;
  eventLogSize?: number;
}

interface NodeRecord {
  state: NodeState;
  status: NodeStatus;
  startPhase: number;
  sampledAt: number;
  statusSince: number;
  /** When an event last set the status: a poll asked before that is older news for this node. */
  eventStatusAt: number;
  nodeGroup: number | 'none' | null;
}

/** Statistics reports become rates; thousands a minute would drown the log. */
const NOT_LOGGED = new Set(['TransReportCounters', 'OperationReportCounters']);
const ARBITRATION_LOST = new Set([41, 44, 45, 47, 48, 49, 91, 92, 93, 94, 95]);
const ARBITRATION_NEEDED = new Set([42, 46]);
const MEMORY_LEVELS = [
  { level: 'critical', percent: 90, kind: 'memory-critical', severity: 'critical' },
  { level: 'high', percent: 80, kind: 'memory-high', severity: 'warning' },
] as const;

const isLive = (s: ConnectionView['status']): boolean => s === 'live' || s === 'failed-over';
const isLost = (s: string): boolean => s === 'reconnecting' || s === 'offline';

/**
 * One cluster's state and everything derived from it. Pure with respect to time: every input carries its own
 * timestamp and nothing here reads a clock, so a replay of the same inputs derives the same snapshots.
 */
export class ClusterTracker {
  private readonly nodes = new Map<number, NodeRecord>();
  private now = 0;
  private sampledAt: number | null = null;
  private connection: ConnectionView;
  private singleUserApi: number | null = null;
  private readonly requested = new Set<number>();
  private readonly restarts = new RestartTracker();
  private readonly rates = new RateTracker();
  private readonly memory = new MemoryTracker();
  private readonly backup = new BackupTracker();
  private readonly log: EventLog;
  private readonly alerts: AlertBook;
  private readonly timeline: StatusTimeline;
  readonly history: ClusterHistory;
  private readonly groupHealth = new Map<number, NodeGroupView['health']>();
  private newEvents: EventView[] = [];
  /** Set by what must reach the screen at once: an alert, a data node leaving or reaching the up state. */
  private urgentChange = false;

  constructor(
    readonly clusterId: string,
    public name: string,
    options: TrackerOptions,
    private readonly listener: TrackerListener,
  ) {
    this.connection = {
      mode: options.mode,
      status: 'connecting',
      connectstring: options.connectstring,
      mgmd: null,
      serverVersion: null,
      failovers: 0,
      lastError: null,
      eventStream: { status: 'connecting', lastEventAt: null },
    };
    this.log = new EventLog(options.eventLogSize);
    this.alerts = new AlertBook((a) => {
      this.urgentChange = true;
      listener.alert(a);
    });
    this.timeline = new StatusTimeline(options.historySeconds * 1000);
    this.history = new ClusterHistory(options.historySeconds);
  }

  get mode(): ConnectionView['mode'] {
    return this.connection.mode;
  }

  get time(): number {
    return this.now;
  }

  setHistorySeconds(seconds: number): void {
    this.history.resize(seconds);
    this.timeline.setHorizon(seconds * 1000);
  }

  apply(input: TrackerInput): void {
    this.now = Math.max(this.now, input.t);
    switch (input.kind) {
      case 'status':
        this.applyStatus(input.nodes, input.requestedAt, input.t);
        break;
      case 'event':
        this.applyEvent(input.event);
        break;
      case 'memory':
        for (const e of input.events) this.applyMemory(e);
        break;
      case 'connection':
        this.applyConnection(input.connection, input.t);
        break;
      case 'requested':
        if (input.requested) this.requested.add(input.nodeId);
        else this.requested.delete(input.nodeId);
        break;
      case 'ack':
        this.alerts.acknowledge(input.alertId);
        break;
      case 'tick':
        this.sample(input.t);
        break;
    }
    this.checkGroups(this.now);
    if (this.newEvents.length > 0) {
      const batch = this.newEvents;
      this.newEvents = [];
      this.listener.events(batch);
    }
    const urgent = this.urgentChange || input.kind === 'connection';
    this.urgentChange = false;
    this.listener.changed(urgent);
  }

  events(beforeSeq: number | undefined, limit: number): EventView[] {
    return this.log.page(beforeSeq, limit);
  }

  timelineView(fromMs: number | undefined): Timeline {
    return this.timeline.view(fromMs, this.now);
  }

  snapshot(): ClusterSnapshot {
    const members = this.members();
    const master = [...this.nodes.values()].find((n) => n.state.isMaster && n.status !== 'NO_CONTACT');
    return {
      clusterId: this.clusterId,
      name: this.name,
      connection: { ...this.connection, mgmd: this.connection.mgmd && { ...this.connection.mgmd }, eventStream: { ...this.connection.eventStream } },
      sampledAt: this.sampledAt,
      nodes: [...this.nodes.values()].sort((a, b) => a.state.nodeId - b.state.nodeId).map((n) => this.nodeView(n, members)),
      nodeGroups: nodeGroups(members),
      masterNodeId: master?.state.nodeId ?? null,
      singleUserApiNodeId: this.singleUserApi,
      rates: this.rates.total(),
      backup: this.backup.current && { ...this.backup.current },
      alerts: this.alerts.visible(),
    };
  }

  private nodeView(n: NodeRecord, members: readonly GroupMember[]): NodeView {
    const s = n.state;
    const id = s.nodeId;
    const member = members.find((m) => m.nodeId === id);
    return {
      nodeId: id,
      type: s.type,
      status: n.status,
      statusRaw: n.status === s.status ? s.statusRaw : n.status,
      startPhase: n.startPhase,
      nodeGroup: s.type === 'NDB' ? n.nodeGroup : null,
      version: s.version,
      versionRaw: s.versionRaw,
      mysqlVersion: s.mysqlVersion,
      address: s.address,
      connectCount: s.connectCount,
      dynamicId: s.dynamicId,
      isSingleUser: s.isSingleUser,
      isMaster: s.isMaster && n.status !== 'NO_CONTACT',
      sampledAt: n.sampledAt,
      statusSince: n.statusSince,
      restart: this.restarts.view(id, this.now),
      safeToStop: s.type === 'NDB' && member ? safeToStop(member, members) : null,
      memory: { ...this.memory.node(id) },
      rates: this.rates.node(id),
    };
  }

  private members(): GroupMember[] {
    return [...this.nodes.values()].filter((n) => n.state.type === 'NDB').map((n) => ({ nodeId: n.state.nodeId, status: n.status, nodeGroup: n.nodeGroup }));
  }

  private applyStatus(states: readonly NodeState[], requestedAt: number, at: number): void {
    if (this.nodes.size === 0 && states.length > 0) this.newEvents.push(this.log.note(firstStatusNote(states, at)));
    const seen = new Set<number>();
    for (const s of states) {
      seen.add(s.nodeId);
      let rec = this.nodes.get(s.nodeId);
      if (!rec) {
        rec = { state: s, status: s.status, startPhase: s.startPhase, sampledAt: at, statusSince: at, eventStatusAt: 0, nodeGroup: null };
        this.nodes.set(s.nodeId, rec);
        this.timeline.note(s.nodeId, s.status, s.startPhase, at);
        this.restarts.onStatus(s.nodeId, s.status, s.startPhase, at);
      }
      rec.state = s;
      rec.sampledAt = at;
      if (s.nodeGroup !== null) rec.nodeGroup = s.nodeGroup;
      if (rec.eventStatusAt <= requestedAt) this.setStatus(s.nodeId, s.status, s.startPhase, at, false);
    }
    for (const id of [...this.nodes.keys()]) {
      if (seen.has(id)) continue;
      this.nodes.delete(id);
      this.timeline.forget(id);
    }
    const single = states.find((s) => s.isSingleUser === true && s.type === 'API');
    if (single) this.singleUserApi = single.nodeId;
    else if (states.some((s) => s.isSingleUser !== null)) this.singleUserApi = null;
    this.sampledAt = at;
  }

  /** The one place a node's status changes, whether a poll or an event tells it. */
  private setStatus(id: number, status: NodeStatus, phase: number, at: number, fromEvent: boolean): void {
    const rec = this.nodes.get(id);
    if (!rec) return;
    if (fromEvent) rec.eventStatusAt = at;
    if (rec.status === status && rec.startPhase === phase) return;
    const previous = rec.status;
    rec.status = status;
    rec.startPhase = phase;
    if (previous !== status) rec.statusSince = at;
    this.timeline.note(id, status, phase, at);
    this.restarts.onStatus(id, status, phase, at);
    if (rec.state.type !== 'NDB') return;
    // Start phases tick by every second during a restart and can wait for a slot; down and up cannot.
    if (isUp(previous) !== isUp(status)) this.urgentChange = true;
    const key = `node-down:${id}`;
    // A graceful stop (SHUTTING_DOWN, NDBStopStarted) is always someone's order, ours or another
    // ndb_mgm's; only a node that drops without one has failed.
    if (status === 'SHUTTING_DOWN') this.requested.add(id);
    if (isUp(status)) {
      this.alerts.resolve(key, at);
      this.requested.delete(id);
    } else if (isUp(previous) && !this.requested.has(id)) {
      this.alerts.raise(key, 'node-down', 'critical', at, id, `Node ${id} left STARTED without a requested stop (now ${status})`);
    }
  }

  private applyEvent(e: ClusterEvent): void {
    const at = e.receivedAt;
    this.connection.eventStream.lastEventAt = at;
    if (!NOT_LOGGED.has(e.name)) this.newEvents.push(this.log.add(e));
    if (this.rates.apply(e) || this.backup.apply(e)) return;
    const f = e.fields;
    const src = e.sourceNodeId;
    switch (e.name) {
      case 'MemoryUsage':
        return this.applyMemory(e);
      case 'NDBStopStarted':
        return this.setStatus(src, 'SHUTTING_DOWN', 0, at, true);
      case 'NDBStopForced':
        return this.setStatus(src, 'NO_CONTACT', 0, at, true);
      case 'Disconnected':
        return this.setStatus(f.node ?? 0, 'NO_CONTACT', 0, at, true);
      case 'NODE_FAILREP':
        return this.setStatus(f.failed_node ?? 0, 'NO_CONTACT', 0, at, true);
      case 'Connected':
        return this.onConnected(f.node ?? 0, at);
      case 'NDBStartStarted':
        return this.setStatus(src, 'STARTING', 0, at, true);
      case 'StartPhaseCompleted':
        this.setStatus(src, 'STARTING', f.phase ?? 0, at, true);
        this.restarts.setStartType(src, f.starttype ?? 0);
        return;
      case 'NDBStartCompleted':
        return this.setStatus(src, 'STARTED', 0, at, true);
      case 'SingleUser':
        return this.onSingleUser(f.type ?? -1, f.node_id ?? null, at);
      case 'ArbitResult':
        return this.onArbitration(e);
      case 'LCPStoppedInCalcKeepGci':
        return this.alerts.occurred('checkpoint-stall', 'critical', at, src, `Node ${src}: local checkpoint stopped in calcKeepGci`);
      case 'UndoLogBlocked':
        return this.alerts.occurred('checkpoint-stall', 'warning', at, src, `Node ${src}: undo log blocked`);
    }
  }

  private onConnected(id: number, at: number): void {
    const rec = this.nodes.get(id);
    if (!rec) return;
    if (rec.state.type !== 'NDB') this.setStatus(id, 'CONNECTED', 0, at, true);
    else if (rec.status === 'NO_CONTACT') this.setStatus(id, 'NOT_STARTED', 0, at, true);
  }

  private onSingleUser(type: number, apiNode: number | null, at: number): void {
    const entered = type === 1;
    if (type !== 1 && type !== 2) return;
    this.singleUserApi = entered ? apiNode : null;
    for (const [id, rec] of this.nodes) {
      if (rec.state.type !== 'NDB' || !isUp(rec.status)) continue;
      this.setStatus(id, entered ? 'SINGLE USER MODE' : 'STARTED', 0, at, true);
    }
  }

  private onArbitration(e: ClusterEvent): void {
    const code = arbitCode(e.fields.code ?? 0);
    const severity = ARBITRATION_LOST.has(code) ? 'critical' : ARBITRATION_NEEDED.has(code) ? 'warning' : null;
    if (severity) this.alerts.occurred('arbitration', severity, e.receivedAt, e.sourceNodeId, eventText(e));
  }

  private applyMemory(e: ClusterEvent): void {
    const kind = this.memory.apply(e);
    if (kind) this.checkMemory(e.sourceNodeId, kind, e.receivedAt);
  }

  private checkMemory(id: number, kind: MemoryKind, at: number): void {
    const percent = this.memory.node(id)[kind]?.percent ?? 0;
    const level = MEMORY_LEVELS.find((l) => percent >= l.percent)?.level ?? null;
    for (const l of MEMORY_LEVELS) {
      const key = `${l.kind}:${id}:${kind}`;
      if (l.level === level) this.alerts.raise(key, l.kind, l.severity, at, id, `Node ${id}: ${kind} memory ${Math.round(percent)}% used`);
      else this.alerts.resolve(key, at);
    }
  }

  private applyConnection(c: ConnectionInput, at: number): void {
    const before = this.connection;
    this.connection = { ...c, mode: before.mode, eventStream: { status: c.eventStream.status, lastEventAt: before.eventStream.lastEventAt } };
    for (const n of connectionNotes(before, this.connection, at)) this.newEvents.push(this.log.note(n));
    if (isLive(c.status)) this.alerts.resolve('mgmd-lost', at);
    else if (isLive(before.status) && isLost(c.status)) {
      this.alerts.raise('mgmd-lost', 'mgmd-lost', 'critical', at, before.mgmd?.nodeId ?? null, `Lost the management server${before.mgmd ? ` ${before.mgmd.host}:${before.mgmd.port}` : ''}${c.lastError ? `: ${c.lastError}` : ''}`);
    }
    if (c.eventStream.status === 'live') this.alerts.resolve('event-stream-lost', at);
    else if (before.eventStream.status === 'live' && isLost(c.eventStream.status)) {
      this.alerts.raise('event-stream-lost', 'event-stream-lost', 'warning', at, null, 'Lost the event stream: state changes now arrive only by polling');
    }
  }

  private checkGroups(at: number): void {
    for (const g of nodeGroups(this.members())) {
      if (this.groupHealth.get(g.nodeGroup) === g.health) continue;
      this.groupHealth.set(g.nodeGroup, g.health);
      const degraded = `ng-degraded:${g.nodeGroup}`;
      const offline = `ng-offline:${g.nodeGroup}`;
      if (g.health !== 'DEGRADED') this.alerts.resolve(degraded, at);
      if (g.health !== 'OFFLINE') this.alerts.resolve(offline, at);
      if (g.health === 'DEGRADED') this.alerts.raise(degraded, 'node-group-degraded', 'warning', at, null, `Node group ${g.nodeGroup} degraded: ${g.live} of ${g.nodeIds.length} nodes up`);
      if (g.health === 'OFFLINE') this.alerts.raise(offline, 'node-group-offline', 'critical', at, null, `Node group ${g.nodeGroup} offline: no node up (nodes ${g.nodeIds.join(', ')})`);
    }
  }

  private sample(at: number): void {
    const total = this.rates.total();
    const dataIds = [...this.nodes.values()].filter((n) => n.state.type === 'NDB').map((n) => n.state.nodeId);
    const cluster: MetricValues = {
      ...rateValues(isFresh(total, at) ? total : null),
      dataMemory: this.memory.clusterPercent('data', dataIds),
      indexMemory: this.memory.clusterPercent('index', dataIds),
    };
    const perNode = new Map<number, MetricValues>();
    for (const id of dataIds) {
      const r = this.rates.node(id);
      const m = this.memory.node(id);
      perNode.set(id, { ...rateValues(isFresh(r, at) ? r : null), dataMemory: m.data?.percent ?? null, indexMemory: m.index?.percent ?? null });
    }
    this.listener.history(this.history.record(at, cluster, perNode));
  }
}

function rateValues(r: Rates | null): MetricValues {
  return {
    transactions: r?.transactions ?? null,
    commits: r?.commits ?? null,
    reads: r?.reads ?? null,
    writes: r?.writes ?? null,
    scans: r?.scans ?? null,
    aborts: r?.aborts ?? null,
    operations: r?.operations ?? null,
  };
}
