import { expiringCerts } from '../tls/cert-expiry.js';
import { sameValue } from '../../contract/same-value.js';
import type { ClusterCounters } from '../../contract/counters.js';
import type { Alert, EventView } from '../../contract/events.js';
import { connectionNotes, firstStatusNote } from '../observations/engine-notes.js';
import type { HistoryPoint, Timeline } from '../../contract/history.js';
import type { Run, RunReport } from '../../contract/runs.js';
import type { NodeGroupView, NodeRates, NodeStatus, NodeView } from '../../contract/node.js';
import type { ClusterSnapshot, ConnectionView } from '../../contract/snapshot.js';
import type { ClusterEvent, NodeState } from '../../../native-mgm/index.js';
import { AlertBook } from '../alerts/alert-book.js';
import { markRaisingEvent } from '../alerts/event-severity.js';
import { MEMORY_LEVELS, MemoryLevels } from '../alerts/memory-levels.js';
import { BackupTracker } from './backup-tracker.js';
import { AlertTally } from '../counters/alert-tally.js';
import { StatisticsTotals } from '../counters/statistics-totals.js';
import { EventLog } from '../events/event-log.js';
import { arbitCode, eventText } from '../events/event-text.js';
import { ClusterHistory, type MetricValues } from '../history/history.js';
import { MemoryTracker, type MemoryKind } from './memory.js';
import { nodeGroups, safeToStop, type GroupMember } from './node-groups.js';
import { isUp } from './node-status.js';
import { RateTracker, type RateInstances } from '../rates/rates.js';
import { RestartTracker } from './restart-tracker.js';
import type { CollapseConfig } from '../runs/collapse.js';
import { RunTracker } from '../runs/run-tracker.js';
import { runReport } from '../runs/run-summary.js';
import { StatusTimeline } from './status-timeline.js';
import type { ConnectionInput, TrackerInput } from './tracker-input.js';
import type { ClusterConfigView } from '../../contract/config.js';
import { ConfigState } from '../config/config-state.js';

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
  /** When a fall of cluster throughput is a collapse; default: by half within 10 s. */
  collapse?: CollapseConfig;
  memoryAlertHoldMs?: number | undefined;
  /** Reuse a node's view while nothing it shows changed (default); tests turn it off to check it against fresh ones. */
  reuseNodeViews?: boolean;
  /** Default 'configuration'; a replay of an older recording says 'arrivals'. */
  rateInstances?: RateInstances;
}

interface NodeRecord {
  state: NodeState;
  status: NodeStatus;
  startPhase: number;
  statusSince: number;
  /** When an event last set the status: a poll asked before that is older news for this node. */
  eventStatusAt: number;
  nodeGroup: number | 'none' | null;
  /** Bumped when something only this node shows changed (its poll line, rates, memory). */
  stamp: number;
}

/** A node's view as last built, and what it was built from. */
interface CachedView {
  epoch: number;
  stamp: number;
  stale: boolean | null;
  view: NodeView;
}

/** Statistics reports become rates; thousands a minute would drown the log. */
const NOT_LOGGED = new Set(['TransReportCounters', 'OperationReportCounters']);
const ARBITRATION_LOST = new Set([41, 44, 45, 47, 48, 49, 91, 92, 93, 94, 95]);
const ARBITRATION_NEEDED = new Set([42, 46]);

/** Statuses in which the management server has no contact with the node: what we show of it is from before. */
const isConnected = (s: NodeStatus): boolean => s !== 'NO_CONTACT' && s !== 'UNKNOWN';
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
  /** Some event came: kept here, not in the pushed connection, which every report would otherwise move. */
  private eventsSeen = false;
  private certAlerts = new Set<string>();
  private connection: ConnectionView;
  private singleUserApi: number | null = null;
  private readonly requested = new Set<number>();
  private readonly restarts = new RestartTracker();
  private readonly config = new ConfigState();
  private readonly rates: RateTracker;
  private readonly totals = new StatisticsTotals();
  private readonly alertTally = new AlertTally();
  private readonly memory = new MemoryTracker();
  private readonly memoryLevels: MemoryLevels;
  private readonly backup = new BackupTracker();
  private readonly log: EventLog;
  private readonly alerts: AlertBook;
  private readonly timeline: StatusTimeline;
  readonly history: ClusterHistory;
  readonly runs: RunTracker;
  private readonly groupHealth = new Map<number, NodeGroupView['health']>();
  /**
   * Bumped by every input that may change what more than one node shows (a status, a group, the configuration, any
   * event but a report). Statistics and memory reports, hundreds a second under load, only touch their node's
   * stamp: a push then rebuilds the few nodes that reported, not all 255, and the delta compares the rest by
   * identity.
   */
  private viewEpoch = 0;
  private readonly views = new Map<number, CachedView>();
  private readonly reuseViews: boolean;
  /** Set by the inputs that can change a node group's health: statuses, node groups, the configuration. */
  private groupsMayHaveChanged = false;
  private newEvents: EventView[] = [];
  /** The logged event being applied: an alert it raises gives it its severity. */
  private eventInHand: EventView | null = null;
  /** Set by what must reach the screen at once: an alert, a data node leaving or reaching the up state. */
  private urgentChange = false;

  constructor(
    readonly clusterId: string,
    public name: string,
    options: TrackerOptions,
    private readonly listener: TrackerListener,
  ) {
    this.reuseViews = options.reuseNodeViews !== false;
    this.rates = new RateTracker(options.rateInstances === 'arrivals' ? undefined : (id) => this.config.instances(id));
    this.connection = {
      mode: options.mode,
      status: 'connecting',
      connectstring: options.connectstring,
      mgmd: null,
      serverVersion: null,
      failovers: 0,
      lastError: null,
      eventStream: { status: 'connecting' },
    };
    this.log = new EventLog(options.eventLogSize);
    this.memoryLevels = new MemoryLevels(options.memoryAlertHoldMs);
    this.alerts = new AlertBook((a) => {
      this.urgentChange = true;
      if (this.eventInHand) markRaisingEvent(this.eventInHand, a);
      this.alertTally.count(a);
      this.runs.onAlert(a);
      listener.alert(a);
    });
    this.runs = new RunTracker(
      {
        events: (from, to) => this.log.page(undefined, Number.MAX_SAFE_INTEGER).filter((e) => e.at >= from && e.at <= to),
        raiseCollapse: (at, message) => this.alerts.occurred('throughput-collapse', 'critical', at, null, message),
      },
      options.collapse,
    );
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
    // Status polls and events say themselves what they changed; a tick changes no node.
    if (input.kind !== 'status' && input.kind !== 'event' && input.kind !== 'memory' && input.kind !== 'tick') this.viewEpoch++;
    switch (input.kind) {
      case 'status':
        this.groupsMayHaveChanged = true;
        this.applyStatus(input.nodes, input.requestedAt, input.t);
        break;
      case 'event':
        this.applyEvent(input.event);
        break;
      case 'memory':
        this.applyMemoryRound(input.events);
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
      case 'run':
        this.runs.apply(input);
        break;
      case 'config': {
        this.groupsMayHaveChanged = true;
        const note = this.config.apply(input.config, input.t);
        this.rates.configurationRead();
        if (note) this.newEvents.push(this.log.note(note));
        break;
      }
    }
    // Statistics reports come hundreds a second and never change a group; only these inputs can.
    if (this.groupsMayHaveChanged) this.checkGroups(this.now);
    this.groupsMayHaveChanged = false;
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

  configView(): ClusterConfigView | null {
    return this.config.view();
  }

  /** NoOfReplicas from the configuration, null until it is read. */
  replicas(): number | null {
    return this.config.replicas();
  }

  timelineView(fromMs: number | undefined): Timeline {
    return this.timeline.view(fromMs, this.now);
  }

  /** What a cluster list needs, without building every node's view (a full snapshot is 255 of them). */
  overview(): Pick<ClusterSnapshot, 'name' | 'connection' | 'alerts'> {
    return { name: this.name, connection: this.connection, alerts: this.alerts.visible() };
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
      nodeGroups: nodeGroups(members, this.config.replicas()),
      masterNodeId: master?.state.nodeId ?? null,
      singleUserApiNodeId: this.singleUserApi,
      rates: this.rates.total(this.now, this.dataNodeIds()),
      backup: this.backup.current && { ...this.backup.current },
      alerts: this.alerts.visible(),
      runs: this.runs.list(),
      configGeneration: this.config.generation,
    };
  }

  /** Running totals for exporters (Prometheus counters): statistics per data node and alerts raised. */
  counters(): ClusterCounters {
    return { clusterId: this.clusterId, nodes: this.totals.view(), alerts: this.alertTally.view() };
  }

  runReport(run: Run): RunReport {
    const dataNodes = [...this.nodes.values()].filter((n) => n.state.type === 'NDB').map((n) => ({ nodeId: n.state.nodeId, nodeGroup: typeof n.nodeGroup === 'number' ? n.nodeGroup : null }));
    return runReport(run, {
      history: this.history,
      events: (from, to) => this.log.page(undefined, Number.MAX_SAFE_INTEGER).filter((e) => e.at >= from && e.at <= to),
      alerts: (from, to) => this.runs.alerts(from, to),
      dataNodes,
      source: this.name,
      now: this.now,
    });
  }

  private nodeView(n: NodeRecord, members: readonly GroupMember[]): NodeView {
    const s = n.state;
    const id = s.nodeId;
    const member = members.find((m) => m.nodeId === id);
    const connected = isConnected(n.status);
    const rates = this.rates.node(id);
    const restart = this.restarts.view(id, this.now);
    const stale = rates && (!connected || !this.rates.isFresh(id, this.now));
    const cached = this.views.get(id);
    // A restart's estimate moves with the clock: never reused.
    if (cached && restart === null && cached.epoch === this.viewEpoch && cached.stamp === n.stamp && cached.stale === stale && this.reuseViews) return cached.view;
    const view: NodeView = {
      nodeId: id,
      type: s.type,
      status: n.status,
      statusRaw: n.status === s.status ? s.statusRaw : n.status,
      startPhase: n.startPhase,
      nodeGroup: s.type === 'NDB' ? this.groupOf(n) : null,
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
      // A node we cannot reach gets no verdict: "safe to stop" on a dead node reads as "all is well".
      safeToStop: s.type === 'NDB' && member && connected ? safeToStop(member, members, this.config.replicas()) : null,
      memory: this.memoryView(id, connected),
      rates: rates && { ...rates, stale: stale === true },
      lastSeenAt: connected ? null : n.statusSince,
      configured: this.config.configured(id),
    };
    this.views.set(id, { epoch: this.viewEpoch, stamp: n.stamp, stale, view });
    return view;
  }

  /** A node not connected shows its figures from when it was last seen: stale, whatever the last refresh said. */
  private memoryView(id: number, connected: boolean): NodeView['memory'] {
    const { data, index } = this.memory.node(id);
    if (connected) return { data, index };
    return { data: data && { ...data, stale: true }, index: index && { ...index, stale: true } };
  }

  private dataNodeIds(): number[] {
    return [...this.nodes.values()].filter((n) => n.state.type === 'NDB').map((n) => n.state.nodeId);
  }

  /** The group `get status` last showed, else the configured one (a node never seen up prints a placeholder). */
  private groupOf(n: NodeRecord): NodeRecord['nodeGroup'] {
    return n.nodeGroup ?? this.config.nodeGroup(n.state.nodeId);
  }

  private members(): GroupMember[] {
    return [...this.nodes.values()].filter((n) => n.state.type === 'NDB').map((n) => ({ nodeId: n.state.nodeId, status: n.status, nodeGroup: this.groupOf(n) }));
  }

  private applyStatus(states: readonly NodeState[], requestedAt: number, at: number): void {
    if (this.nodes.size === 0 && states.length > 0) this.newEvents.push(this.log.note(firstStatusNote(states, at)));
    const seen = new Set<number>();
    for (const s of states) {
      seen.add(s.nodeId);
      let rec = this.nodes.get(s.nodeId);
      if (!rec) {
        rec = { state: s, status: s.status, startPhase: s.startPhase, statusSince: at, eventStatusAt: 0, nodeGroup: null, stamp: 0 };
        this.nodes.set(s.nodeId, rec);
        this.viewEpoch++;
        this.timeline.note(s.nodeId, s.status, s.startPhase, at);
        this.restarts.onStatus(s.nodeId, s.status, s.startPhase, at);
      }
      // Every poll reads every node; most lines are what they were.
      if (!sameValue(rec.state, s)) {
        rec.state = s;
        rec.stamp++;
      }
      if (s.nodeGroup !== null && s.nodeGroup !== rec.nodeGroup) {
        rec.nodeGroup = s.nodeGroup;
        this.viewEpoch++;
      }
      if (rec.eventStatusAt <= requestedAt) this.setStatus(s.nodeId, s.status, s.startPhase, at, false);
    }
    for (const id of [...this.nodes.keys()]) {
      if (seen.has(id)) continue;
      this.viewEpoch++;
      this.views.delete(id);
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
    this.groupsMayHaveChanged ||= previous !== status;
    this.viewEpoch++;
    rec.status = status;
    rec.startPhase = phase;
    if (previous !== status) rec.statusSince = at;
    this.timeline.note(id, status, phase, at);
    this.restarts.onStatus(id, status, phase, at);
    if (rec.state.type !== 'NDB') return;
    // A (re)starting node's instances begin new report periods: its earlier reports say nothing about them.
    if (status === 'STARTING' && previous !== 'STARTING') this.rates.restarted(id);
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
    this.eventsSeen = true;
    const view = NOT_LOGGED.has(e.name) ? null : this.log.add(e);
    if (view) this.newEvents.push(view);
    this.eventInHand = view;
    try {
      this.applyEventEffects(e, at);
    } finally {
      this.eventInHand = null;
    }
  }

  private applyEventEffects(e: ClusterEvent, at: number): void {
    // Totals and rates read the same reports; both must see every one.
    const statistics = this.totals.apply(e);
    if (this.rates.apply(e) || statistics || this.backup.apply(e)) return this.touch(e.sourceNodeId);
    if (e.name !== 'MemoryUsage') this.viewEpoch++;
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
    const applied = this.memory.apply(e);
    if (!applied) return;
    // The same pages again (every refresh of an idle cluster) leave the node's view, and so the delta, alone.
    if (applied.changed) this.touch(e.sourceNodeId);
    this.checkMemory(e.sourceNodeId, applied.kind, e.receivedAt);
  }

  /** One `dump events 50` reply: a node with figures that sent none this time keeps them, marked stale. */
  private applyMemoryRound(events: readonly ClusterEvent[]): void {
    for (const e of events) this.applyMemory(e);
    const reported = new Set(events.filter((e) => e.name === 'MemoryUsage').map((e) => e.sourceNodeId));
    for (const id of this.memory.endRound(reported)) this.touch(id);
  }

  private touch(id: number): void {
    const rec = this.nodes.get(id);
    if (rec) rec.stamp++;
  }

  private checkMemory(id: number, kind: MemoryKind, at: number): void {
    const percent = this.memory.node(id)[kind]?.percent ?? 0;
    const level = this.memoryLevels.update(`${id}:${kind}`, percent, at);
    for (const l of MEMORY_LEVELS) {
      const key = `${l.kind}:${id}:${kind}`;
      if (l === level) this.alerts.raise(key, l.kind, l.severity, at, id, `Node ${id}: ${kind} memory ${Math.round(percent)}% used (≥ ${l.raiseAt} %)`);
      else this.alerts.resolve(key, at);
    }
  }

  private applyConnection(c: ConnectionInput, at: number): void {
    const before = this.connection;
    if (c.failovers > before.failovers && c.mgmd) this.runs.note(at, `management server failover to ${c.mgmd.host}:${c.mgmd.port}`);
    this.connection = { ...c, mode: before.mode, eventStream: { status: c.eventStream.status } };
    for (const n of connectionNotes(before, this.connection, at, this.eventsSeen)) this.newEvents.push(this.log.note(n));
    if (isLive(c.status)) this.alerts.resolve('mgmd-lost', at);
    else if ((isLive(before.status) || before.status === 'stale') && isLost(c.status)) {
      this.alerts.raise('mgmd-lost', 'mgmd-lost', 'critical', at, before.mgmd?.nodeId ?? null, `Lost the management server${before.mgmd ? ` ${before.mgmd.host}:${before.mgmd.port}` : ''}${c.lastError ? `: ${c.lastError}` : ''}`);
    }
    this.checkCertExpiry(c, at);
    if (c.eventStream.status === 'live') this.alerts.resolve('event-stream-lost', at);
    else if (before.eventStream.status === 'live' && isLost(c.eventStream.status)) {
      this.alerts.raise('event-stream-lost', 'event-stream-lost', 'warning', at, null, 'Lost the event stream: state changes now arrive only by polling');
    }
  }

  /** One warning per certificate of the connection that expires within the window; over once it is renewed. */
  private checkCertExpiry(c: ConnectionInput, at: number): void {
    const expiring = expiringCerts(c.tls, at);
    const keys = new Set(expiring.map((e) => e.key));
    for (const key of this.certAlerts) if (!keys.has(key)) this.alerts.resolve(key, at);
    for (const e of expiring) this.alerts.raise(e.key, 'cert-expiring', 'warning', at, null, e.message);
    this.certAlerts = keys;
  }

  private checkGroups(at: number): void {
    for (const g of nodeGroups(this.members(), this.config.replicas())) {
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
    const dataIds = this.dataNodeIds();
    const cluster: MetricValues = {
      ...rateValues(this.rates.total(at, dataIds)),
      dataMemory: this.memory.clusterPercent('data', dataIds),
      indexMemory: this.memory.clusterPercent('index', dataIds),
    };
    const perNode = new Map<number, MetricValues>();
    for (const id of dataIds) {
      const m = this.memory.node(id);
      perNode.set(id, { ...rateValues(this.rates.isFresh(id, at) ? this.rates.node(id) : null), dataMemory: m.data?.percent ?? null, indexMemory: m.index?.percent ?? null });
    }
    this.listener.history(this.history.record(at, cluster, perNode));
    this.runs.sample(at, cluster.transactions ?? null);
  }
}

function rateValues(r: NodeRates | null): MetricValues {
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
