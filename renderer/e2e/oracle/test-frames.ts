import type { Alert, ClusterSnapshot, Incident, NodeStatus, NodeView, RunningBackup } from '../../../electron/contract/index.js';
import type { DomView, Frame } from './frame.js';

/** Frames for the catalogue's unit tests: a healthy 4-node cluster, each test changing what it needs. */

export function dataNode(nodeId: number, status: NodeStatus = 'STARTED', startPhase = 0): NodeView {
  return {
    nodeId,
    type: 'NDB',
    status,
    statusRaw: status,
    startPhase,
    nodeGroup: nodeId <= 3 ? 0 : 1,
    version: '8.4.3',
    versionRaw: 0,
    mysqlVersion: null,
    address: '127.0.0.1',
    connectCount: 0,
    dynamicId: nodeId,
    isSingleUser: false,
    isMaster: nodeId === 2,
    statusSince: 0,
    restart: null,
    safeToStop: true,
    memory: { data: { usedPages: 10, totalPages: 100, pageSizeBytes: 32768, percent: 10 }, index: null },
    rates: null,
  };
}

export function alert(over: Partial<Alert> & Pick<Alert, 'kind' | 'severity' | 'message'>): Alert {
  return { id: `${over.kind}-${over.nodeId ?? 'all'}`, at: 1000, nodeId: 2, acknowledged: false, resolvedAt: null, ...over };
}

export function snapshot(nodes: NodeView[] = [2, 3, 4, 5].map((id) => dataNode(id)), alerts: Alert[] = []): ClusterSnapshot {
  const live = (ids: number[]): number => ids.filter((id) => nodes.find((n) => n.nodeId === id)?.status === 'STARTED').length;
  return {
    clusterId: 'c',
    name: 'sim',
    connection: { mode: 'simulated', status: 'live', connectstring: 'localhost:1186', mgmd: null, serverVersion: null, failovers: 0, lastError: null, eventStream: { status: 'live' } },
    sampledAt: 1000,
    nodes,
    nodeGroups: [
      { nodeGroup: 0, nodeIds: [2, 3], live: live([2, 3]), health: 'OK' },
      { nodeGroup: 1, nodeIds: [4, 5], live: live([4, 5]), health: 'OK' },
    ],
    masterNodeId: 2,
    singleUserApiNodeId: null,
    rates: null,
    backup: null,
    alerts,
  };
}

export function dom(over: Partial<DomView> = {}): DomView {
  return {
    view: 'nodes',
    cards: [2, 3, 4, 5].map((nodeId) => ({ nodeId, status: 'STARTED', startPhase: 0, old: false })),
    restarting: [],
    rollingState: null,
    phases: [],
    banner: [],
    figures: [],
    chart: null,
    eta: null,
    ...over,
  };
}

export function frame(over: Partial<Frame> = {}): Frame {
  const s = over.after ?? over.before ?? snapshot();
  return {
    scenario: 'test',
    dataNodes: 4,
    second: 3,
    at: 1000,
    dom: dom(),
    before: s,
    after: s,
    history: [],
    truth: { nodes: s.nodes.map((n) => ({ nodeId: n.nodeId, status: n.status, startPhase: n.startPhase })), mgmdsUp: 1 },
    ...over,
  };
}

/** Backup 1 at 10 s: node 2 has written 100 MiB of 400 MiB (1,000 records) at 50 MB/s, ending 4–6 s from then. */
export function runningBackup(over: Partial<RunningBackup> = {}): RunningBackup {
  return {
    backupId: 1,
    startedAt: 8000,
    at: 10_000,
    nodes: [{ nodeId: 2, records: 1000, bytes: 100 * 2 ** 20, toBackupBytes: 400 * 2 ** 20, at: 9900 }],
    bytesPerSec: 50e6,
    etaMs: 6000,
    etaRangeMs: { fromMs: 4000, toMs: 6000 },
    toBackupBytes: 400 * 2 ** 20,
    ...over,
  };
}

/** Node 3 fell at 1 s (an error), began its restart at 3 s and was back at 9 s; DataMemory 30 % (peak 31 %) before. */
export function incident(over: Partial<Incident> = {}): Incident {
  return {
    id: 'inc-1000-n3',
    nodeIds: [3],
    startedAt: 1000,
    noticedAt: 1000,
    planned: false,
    cause: { kind: 'error', text: 'Node 3 shut down after an error', evidence: [] },
    before: { from: -59_000, figures: [{ nodeId: 3, name: 'DataMemory used', unit: '%', last: 30, peak: 31, at: 900, source: 'event' }], events: [] },
    restart: { startedAt: 3000, backAt: 9000, totalSecs: 6, usualSecs: null, phases: [] },
    ...over,
  };
}
