import type { Alert, BackupStatus, BackupView, MaintenanceWindow, Run, ClusterSnapshot, RollingRestart, RollingPlanView, ConnectionView, EventView, NdbinfoNode, NdbinfoView, NodeGroupView, NodeView, Rates, SnapshotDelta } from '../contract.js';
import { mergeNodes, sameValue } from './node-map.js';

/** Everything shown about one cluster; the store holds it twice (live and shown) so pausing freezes the screen. */
export interface ClusterData {
  clusterId: string | null;
  name: string;
  /** Version of the last applied push; null after a `getSnapshot`, which carries none: adopt the next delta's. */
  version: number | null;
  connection: ConnectionView | null;
  sampledAt: number | null;
  nodes: ReadonlyMap<number, NodeView>;
  nodeGroups: readonly NodeGroupView[];
  masterNodeId: number | null;
  singleUserApiNodeId: number | null;
  rates: Rates | null;
  backup: BackupView | null;
  /** The running backup and the past ones (the Backups view); null before the first backup event. */
  backups: BackupStatus | null;
  alerts: readonly Alert[];
  /** Benchmark runs, oldest first. */
  runs: readonly Run[];
  /** Generation of the configuration the engine last read (the Configuration view asks for it when it moves). */
  configGeneration: number | null;
  /** The engine's record of the current or just finished rolling restart. */
  rollingRestart: RollingRestart | null;
  /** The rolling restart the engine conducts (planned, running or over); null before the first plan. */
  rollingPlan: RollingPlanView | null;
  /** The SQL source (ndbinfo): null without one. */
  ndbinfo: NdbinfoView | null;
  /** Per data node ndbinfo figures (threads, hottest thread, restart_info's phases …), by node id. */
  ndbinfoNodes: ReadonlyMap<number, NdbinfoNode>;
  /** Maintenance windows of the session, oldest first. */
  maintenance: readonly MaintenanceWindow[];
  /** Oldest first, bounded. */
  events: readonly EventView[];
  /** Bumped on every live history point; charts re-read the ring when it changes. */
  historyVersion: number;
  /** Newest history sample time the screen may show (frozen while paused). */
  historyUntil: number;
}

export const EMPTY_CLUSTER: ClusterData = {
  clusterId: null,
  name: '',
  version: null,
  connection: null,
  sampledAt: null,
  nodes: new Map(),
  nodeGroups: [],
  masterNodeId: null,
  singleUserApiNodeId: null,
  rates: null,
  backup: null,
  backups: null,
  alerts: [],
  runs: [],
  configGeneration: null,
  rollingRestart: null,
  rollingPlan: null,
  ndbinfo: null,
  ndbinfoNodes: new Map(),
  maintenance: [],
  events: [],
  historyVersion: 0,
  historyUntil: 0,
};

/** Keeps `prev` when equal so selectors on unchanged parts return the same reference. */
function keep<T>(prev: T, next: T): T {
  return sameValue(prev, next) ? prev : next;
}

export function applySnapshot(data: ClusterData, snapshot: ClusterSnapshot, version: number | null): ClusterData {
  const sameCluster = data.clusterId === snapshot.clusterId;
  const base = sameCluster ? data : { ...EMPTY_CLUSTER, nodes: new Map<number, NodeView>() };
  return {
    ...base,
    clusterId: snapshot.clusterId,
    name: snapshot.name,
    version,
    connection: keep(base.connection, snapshot.connection),
    sampledAt: snapshot.sampledAt,
    nodes: mergeNodes(base.nodes, snapshot.nodes, [], true),
    nodeGroups: keep(base.nodeGroups, snapshot.nodeGroups),
    masterNodeId: snapshot.masterNodeId,
    singleUserApiNodeId: snapshot.singleUserApiNodeId,
    rates: keep(base.rates, snapshot.rates),
    backup: keep(base.backup, snapshot.backup),
    backups: keep(base.backups, snapshot.backups ?? null),
    alerts: keep(base.alerts, snapshot.alerts),
    runs: keep(base.runs, snapshot.runs ?? []),
    configGeneration: snapshot.configGeneration ?? null,
    rollingRestart: keep(base.rollingRestart, snapshot.rollingRestart ?? null),
    rollingPlan: keep(base.rollingPlan, snapshot.rollingPlan ?? null),
    ndbinfo: keep(base.ndbinfo, snapshot.ndbinfo ?? null),
    ndbinfoNodes: mergeNodes(base.ndbinfoNodes, snapshot.ndbinfoNodes ?? [], [], true),
    maintenance: keep(base.maintenance, snapshot.maintenance ?? []),
  };
}


export type DeltaOutcome = { kind: 'applied'; data: ClusterData } | { kind: 'ignored' } | { kind: 'gap' };

/** Applies a delta only on top of the version it was made from; anything else means a push was lost. */
export function applyDelta(data: ClusterData, delta: SnapshotDelta): DeltaOutcome {
  if (data.clusterId === null) return { kind: 'gap' };
  if (delta.clusterId !== data.clusterId) return { kind: 'ignored' };
  if (data.version !== null) {
    if (delta.version <= data.version) return { kind: 'ignored' };
    if (delta.baseVersion !== data.version) return { kind: 'gap' };
  }
  const next: ClusterData = { ...data, version: delta.version };
  if (delta.nodes || delta.removedNodeIds) next.nodes = mergeNodes(data.nodes, delta.nodes ?? [], delta.removedNodeIds ?? []);
  if (delta.connection) next.connection = keep(data.connection, delta.connection);
  if (delta.sampledAt !== undefined) next.sampledAt = delta.sampledAt;
  if (delta.nodeGroups) next.nodeGroups = keep(data.nodeGroups, delta.nodeGroups);
  if (delta.masterNodeId !== undefined) next.masterNodeId = delta.masterNodeId;
  if (delta.singleUserApiNodeId !== undefined) next.singleUserApiNodeId = delta.singleUserApiNodeId;
  if (delta.rates !== undefined) next.rates = keep(data.rates, delta.rates);
  if (delta.backup !== undefined) next.backup = keep(data.backup, delta.backup);
  if (delta.backups) next.backups = keep(data.backups, delta.backups);
  if (delta.alerts) next.alerts = keep(data.alerts, delta.alerts);
  if (delta.runs) next.runs = keep(data.runs, delta.runs);
  if (delta.configGeneration !== undefined) next.configGeneration = delta.configGeneration;
  if (delta.rollingRestart !== undefined) next.rollingRestart = keep(data.rollingRestart, delta.rollingRestart);
  if (delta.rollingPlan !== undefined) next.rollingPlan = keep(data.rollingPlan, delta.rollingPlan);
  if (delta.ndbinfo !== undefined) next.ndbinfo = keep(data.ndbinfo, delta.ndbinfo);
  if (delta.ndbinfoNodes || delta.removedNdbinfoNodeIds) next.ndbinfoNodes = mergeNodes(data.ndbinfoNodes, delta.ndbinfoNodes ?? [], delta.removedNdbinfoNodeIds ?? []);
  if (delta.maintenance) next.maintenance = keep(data.maintenance, delta.maintenance);
  return { kind: 'applied', data: next };
}

export const EVENT_CAPACITY = 10_000;

/** Adds events not seen yet (by seq), oldest first, dropping the oldest beyond the capacity. */
export function appendEvents(prev: readonly EventView[], incoming: readonly EventView[], capacity = EVENT_CAPACITY): readonly EventView[] {
  const lastSeq = prev[prev.length - 1]?.seq ?? -1;
  const newer = incoming.filter((e) => e.seq > lastSeq).sort((a, b) => a.seq - b.seq);
  // A page of older events (the first getEvents answering after live pushes) is merged in, not dropped.
  const older = newer.length === incoming.length ? [] : incoming.filter((e) => e.seq <= lastSeq);
  let merged: readonly EventView[] = prev;
  if (older.length > 0) {
    const bySeq = new Map(prev.map((e) => [e.seq, e]));
    for (const e of older) if (!bySeq.has(e.seq)) bySeq.set(e.seq, e);
    if (bySeq.size > prev.length) merged = [...bySeq.values()].sort((a, b) => a.seq - b.seq);
  }
  if (newer.length > 0) merged = merged.concat(newer);
  if (merged === prev) return prev;
  return merged.length > capacity ? merged.slice(merged.length - capacity) : merged;
}

/** An alert push replaces the alert with the same id, or adds it. */
export function upsertAlert(prev: readonly Alert[], alert: Alert): readonly Alert[] {
  const i = prev.findIndex((a) => a.id === alert.id);
  if (i === -1) return [...prev, alert];
  if (sameValue(prev[i], alert)) return prev;
  return prev.map((a, j) => (j === i ? alert : a));
}
