import type { ClusterConfigView } from '../../contract/schemas/config.js';
import type { ClusterCounters } from '../../contract/schemas/counters.js';
import type { Alert, EventView } from '../../contract/schemas/events.js';
import type { HistoryPoint, Timeline } from '../../contract/schemas/history.js';
import type { AlertHistory } from '../../contract/schemas/maintenance.js';
import type { NdbinfoLinks } from '../../contract/schemas/ndbinfo.js';
import type { Run, RunReport } from '../../contract/schemas/runs.js';
import type { ClusterSnapshot, ConnectionView } from '../../contract/schemas/snapshot.js';
import type { ClusterEvent } from '../../../native-mgm/index.js';
import type { ClusterHistory } from '../facts/history/history.js';
import type { RateInstances } from '../facts/rates/rates.js';
import type { CollapseConfig } from '../features/runs/collapse.js';
import type { RunTracker } from '../features/runs/run-tracker.js';
import { AlertRoom } from './rooms/alerts/alert-room.js';
import { BackupRoom, type BackupRunning } from './rooms/backup-room.js';
import type { BackupStatus } from '../../contract/schemas/backups.js';
import { ClusterLog } from './rooms/cluster-log.js';
import { ConfigRoom } from './rooms/config-room.js';
import { ConnectionRoom } from './rooms/connection-room.js';
import { GroupAlerts } from './rooms/alerts/group-alerts.js';
import { LoadRoom } from './rooms/load-room.js';
import { MaintenanceRoom } from './rooms/maintenance-room.js';
import { MgmdAlerts } from './rooms/alerts/mgmd-alerts.js';
import { EventAlerts, NodeDownAlerts } from './rooms/alerts/node-alerts.js';
import { IncidentRoom } from './rooms/incident-room.js';
import { NdbinfoRoom } from './rooms/ndbinfo-room.js';
import { NdbinfoAlerts } from './rooms/alerts/ndbinfo-alerts.js';
import { ThreadSeriesRoom } from './rooms/thread-series-room.js';
import type { ThreadSeries } from '../facts/ndbinfo/thread-series.js';
import { NodeBook } from './rooms/node-book.js';
import { NodeViews } from './rooms/node-views.js';
import { PlannedWork } from './rooms/planned-work.js';
import { RestartAlerts } from './rooms/alerts/restart-alerts.js';
import { RestartRoom } from './rooms/restart-room.js';
import { RollingRestartRoom } from './rooms/rolling-restart-room.js';
import { RollingPlanRoom } from './rooms/rolling-plan-room.js';
import type { Room, StatusChange } from './rooms/room.js';
import type { RunStream, RunStreamOptions } from '../features/runs/run-stream.js';
import type { DigestLine } from '../features/runs/run-digest.js';
import { withIncidents } from '../features/runs/run-summary.js';
import { RunRoom } from './rooms/run-room.js';
import { ViewChanges } from './rooms/view-changes.js';
import type { TrackerInput } from './tracker-input.js';

/** Inputs that say themselves which node views they changed, or change none. */
const OWN_CHANGES = new Set<TrackerInput['kind']>(['status', 'event', 'memory', 'tick', 'ndbinfo', 'ndbinfo-link', 'ndbinfo-load', 'rolling-plan']);

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
  /** Runs summarised as their ticks go by, not from the history (a report's replay, whose history is short). */
  streamRuns?: RunStreamOptions | undefined;
  /** Fold digests of what a report needs (`takeDigest`), for a recording. */
  digest?: boolean | undefined;
}

/**
 * One cluster's state and everything derived from it, composed of rooms (`rooms/`), each owning one kind of derived
 * state and fed the same inputs in the same order. Pure with respect to time: every input carries its own
 * timestamp and nothing here reads a clock, so a replay of the same inputs derives the same snapshots.
 */
export class ClusterTracker {
  private now = 0;
  private readonly changes = new ViewChanges();
  private readonly log: ClusterLog;
  private readonly alerts: AlertRoom;
  private readonly maintenanceRoom: MaintenanceRoom;
  private readonly config: ConfigRoom;
  private readonly nodes: NodeBook;
  private readonly connection: ConnectionRoom;
  private readonly load: LoadRoom;
  private readonly restarts: RestartRoom;
  private readonly rolling = new RollingRestartRoom();
  private readonly rollingPlan = new RollingPlanRoom();
  private readonly backup: BackupRoom;
  private readonly runRoom: RunRoom;
  private readonly ndbinfo = new NdbinfoRoom();
  private readonly threads: ThreadSeriesRoom;
  private readonly views: NodeViews;
  private readonly incidentRoom: IncidentRoom;
  /** In the order they take each input: the node records first, so the others see the status it set. */
  private readonly rooms: readonly Room[];

  constructor(
    readonly clusterId: string,
    public name: string,
    options: TrackerOptions,
    private readonly listener: TrackerListener,
  ) {
    const changes = this.changes;
    this.log = new ClusterLog(options.eventLogSize);
    this.maintenanceRoom = new MaintenanceRoom();
    this.alerts = new AlertRoom(changes, (kind, severity) => this.maintenanceRoom.silencing(kind, severity), () => this.runRoom.runs.scope());
    this.maintenanceRoom.onEvent((e) => this.alerts.windowEvent(e));
    this.config = new ConfigRoom(this.log);
    const config = this.config.state;
    this.nodes = new NodeBook(changes, this.log, config, {
      status: (change: StatusChange) => {
        for (const room of this.rooms) room.status?.(change);
      },
      forget: (id: number) => {
        for (const room of this.rooms) room.forget?.(id);
      },
    });
    const mgmds = new MgmdAlerts(this.alerts, () => this.connection.view.mgmd?.nodeId ?? null);
    this.connection = new ConnectionRoom(this.alerts, this.log, options.connectstring, options.mode, () => mgmds.allUp());
    this.load = new LoadRoom(changes, this.alerts, config, { rateInstances: options.rateInstances ?? 'configuration', memoryAlertHoldMs: options.memoryAlertHoldMs });
    this.restarts = new RestartRoom(options.historySeconds * 1000);
    this.threads = new ThreadSeriesRoom(options.historySeconds);
    this.backup = new BackupRoom(changes, this.alerts, (id) => {
      // A node backs up its primary fragments: its DataMemory in use over the replicas that share it.
      const data = this.load.memoryView(id, true).data;
      const replicas = config.replicas();
      return data && replicas ? (data.usedPages * data.pageSizeBytes) / replicas : null;
    });
    this.runRoom = new RunRoom(this.nodes, this.load, this.ndbinfo, this.log, this.alerts, { historySeconds: options.historySeconds, collapse: options.collapse, sampled: (point) => listener.history(point), streamRuns: options.streamRuns && { ...options.streamRuns, clusterId }, digest: options.digest });
    this.views = new NodeViews(changes, this.nodes, this.load, this.restarts, config, () => this.connection.lost, options.reuseNodeViews !== false, (id) => this.ndbinfo.nodeView(id));
    this.alerts.onRaised((a) => listener.alert(a));
    const planned = new PlannedWork();
    const undo = (id: number): { percent: number; at: number } | null => {
      const u = this.ndbinfo.nodeView(id)?.undo;
      return u && u.percent !== null ? { percent: u.percent, at: u.at } : null;
    };
    this.incidentRoom = new IncidentRoom({ planned, expected: () => this.maintenanceRoom.silencing('node-down', 'warning') !== null, figures: { history: this.runRoom.history, inside: this.runRoom.inside, undo } });
    this.rooms = [
      this.nodes,
      this.maintenanceRoom,
      this.config,
      this.connection,
      this.load,
      this.backup,
      this.restarts,
      planned,
      this.rolling,
      this.rollingPlan,
      this.ndbinfo,
      new NdbinfoAlerts(this.ndbinfo, this.alerts, options.memoryAlertHoldMs),
      this.threads,
      this.incidentRoom,
      new NodeDownAlerts(this.alerts, planned, (id) => this.incidentRoom.incidentOf(id)),
      new RestartAlerts(this.alerts, this.restarts, this.ndbinfo),
      new EventAlerts(this.alerts, planned),
      new GroupAlerts(this.alerts, this.nodes, planned),
      mgmds,
      this.alerts,
      this.runRoom,
      this.views,
    ];
  }

  get mode(): ConnectionView['mode'] {
    return this.connection.view.mode;
  }

  get time(): number {
    return this.now;
  }

  /** Runs summarised as their ticks go by (`TrackerOptions.streamRuns`), else null. */
  get runStream(): RunStream | null {
    return this.runRoom.stream;
  }

  /** What a report needs since the last digest taken (`run-digest.ts`); null unless the tracker folds digests. */
  takeDigest(t: number, final: boolean): DigestLine | null {
    return this.runRoom.takeDigest(this.clusterId, t, this.now, final, this.incidentRoom.list());
  }

  get history(): ClusterHistory {
    return this.runRoom.history;
  }

  /** Every data node's threads second by second (the Threads view). */
  get threadSeries(): ThreadSeries {
    return this.threads.series;
  }

  /** The links between nodes as last read (the Redo & transport view asks for them apart from the snapshot). */
  links(nodeIds?: readonly number[]): NdbinfoLinks | null {
    return this.ndbinfo.linkView(nodeIds);
  }

  get runs(): RunTracker {
    return this.runRoom.runs;
  }

  get maintenance(): MaintenanceRoom {
    return this.maintenanceRoom;
  }

  /** Unplanned failures of data nodes, explained, newest first. */
  get incidents(): IncidentRoom {
    return this.incidentRoom;
  }

  alertHistory(): AlertHistory {
    return this.alerts.alertHistory();
  }

  setHistorySeconds(seconds: number): void {
    this.history.resize(seconds);
    this.runRoom.inside.resize(seconds);
    this.restarts.setHorizon(seconds * 1000);
    this.threads.series.resize(seconds);
  }

  apply(input: TrackerInput): void {
    this.now = Math.max(this.now, input.t);
    const revision = this.changes.revision;
    // Status polls and events say themselves what they changed; a tick and ndbinfo change no node's view.
    if (!OWN_CHANGES.has(input.kind)) this.changes.all();
    if (input.kind === 'event') this.applyEvent(input.event);
    else for (const room of this.rooms) room.input?.(input);
    for (const room of this.rooms) room.settle?.(this.now);
    const added = this.log.takeAdded();
    if (added.length > 0) this.listener.events(added);
    // An event that marked no change and was not logged (a statistics report that left its node's rates as they
    // were: an idle cluster's ~230 zero reports a second at 144 data nodes) leaves every push as it was; what
    // moves with the clock alone follows with the next status poll or tick.
    if (input.kind === 'event' && added.length === 0 && this.changes.revision === revision) return;
    const urgent = this.changes.takeUrgent() || input.kind === 'connection';
    this.listener.changed(urgent);
  }

  events(beforeSeq: number | undefined, limit: number): EventView[] {
    return this.log.page(beforeSeq, limit);
  }

  configView(): ClusterConfigView | null {
    return this.config.state.view();
  }

  /** Is a backup running on this cluster, and since when (null: none that ndbtop knows of). */
  backupRunning(): BackupRunning | null {
    return this.backup.running();
  }

  /** The backups as `GET /api/backups` and `ndbtop backup status` give them: the running one and those seen before. */
  backups(): BackupStatus {
    return this.backup.backups(this.now) ?? { running: null, last: [] };
  }

  private backupStatus(): { backups?: BackupStatus } {
    const backups = this.backup.backups(this.now);
    return backups ? { backups } : {};
  }

  /** NoOfReplicas from the configuration, null until it is read. */
  replicas(): number | null {
    return this.config.state.replicas();
  }

  timelineView(fromMs: number | undefined): Timeline {
    return this.restarts.timelineView(fromMs, this.now);
  }

  /** What a cluster list needs, without building every node's view (a full snapshot is 255 of them). */
  overview(): Pick<ClusterSnapshot, 'name' | 'connection' | 'alerts'> {
    return { name: this.name, connection: this.connection.view, alerts: this.alerts.visible() };
  }

  snapshot(): ClusterSnapshot {
    const members = this.nodes.members();
    const nodes = this.views.all(members, this.now);
    const ndbinfo = this.ndbinfo.view();
    const plan = this.rollingPlan.view();
    return {
      clusterId: this.clusterId,
      name: this.name,
      connection: this.connection.copy(),
      sampledAt: this.nodes.sampledAt,
      nodes,
      nodeGroups: this.nodes.groups(),
      masterNodeId: this.nodes.masterId(),
      singleUserApiNodeId: this.nodes.singleUserApi,
      rates: this.load.total(this.now, this.nodes.dataNodeIds()),
      backup: this.backup.view(),
      ...this.backupStatus(),
      alerts: this.alerts.visible(),
      runs: this.runs.list(),
      configGeneration: this.config.state.generation,
      // Absent until the first window, so a replay of an older recording derives the snapshots it recorded.
      ...(this.maintenanceRoom.list().length > 0 ? { maintenance: this.maintenanceRoom.list() } : {}),
      rollingRestart: this.rolling.view(
        nodes.filter((n) => n.type === 'NDB'),
        this.now,
      ),
      // Absent until the engine conducts one, so older recordings replay to the snapshots they recorded.
      ...(plan ? { rollingPlan: plan } : {}),
      // Without an SQL source the snapshot is what it was before ndbinfo, so older recordings replay to theirs.
      ...(ndbinfo ? { ndbinfo, ndbinfoNodes: this.ndbinfo.nodeViews() } : {}),
    };
  }

  /** Running totals for exporters (Prometheus counters): statistics per data node and alerts raised. */
  counters(): ClusterCounters {
    return { clusterId: this.clusterId, nodes: this.load.counters(), alerts: this.alerts.counts(), maintenance: this.maintenanceRoom.counts(), incidents: this.incidentRoom.counts() };
  }

  runReport(run: Run): RunReport {
    const report = this.runRoom.report(run, this.name, this.now);
    return withIncidents(report, run, this.incidentRoom.list());
  }

  /** A cluster event: logged (unless a statistics report), then every room takes it. */
  private applyEvent(e: ClusterEvent): void {
    const view = this.log.add(e);
    this.eventNow = e;
    this.accounted = false;
    this.alerts.raisingFrom(view, this.toRooms);
    // An event no room accounted for may change what any node shows.
    if (!this.accounted) this.changes.all();
  }

  /** The event being applied, to every room: made once, not a closure for each of hundreds of events a second. */
  private eventNow: ClusterEvent | null = null;
  private accounted = false;
  private readonly toRooms = (): void => {
    const e = this.eventNow as ClusterEvent;
    for (const room of this.rooms) this.accounted = (room.event?.(e) ?? false) || this.accounted;
  };
}
