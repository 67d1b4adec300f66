import type { Alert, ClusterSnapshot, EventView, NodeView } from '../contract.js';

/** Contract-shaped values built the way the engine would send them, for the store's pure tests. */
export function nodeView(nodeId: number, patch: Partial<NodeView> = {}): NodeView {
  return {
    nodeId,
    type: 'NDB',
    status: 'STARTED',
    statusRaw: 'STARTED',
    startPhase: 0,
    nodeGroup: 0,
    version: '9.3.0',
    versionRaw: 0x90300,
    mysqlVersion: null,
    address: `10.0.0.${nodeId}`,
    connectCount: 1,
    dynamicId: nodeId,
    isSingleUser: false,
    isMaster: nodeId === 1,
    statusSince: 0,
    restart: null,
    safeToStop: true,
    memory: { data: null, index: null },
    rates: null,
    ...patch,
  };
}

export function snapshot(nodes: NodeView[], patch: Partial<ClusterSnapshot> = {}): ClusterSnapshot {
  return {
    clusterId: 'c1',
    name: 'test',
    connection: {
      mode: 'simulated',
      status: 'live',
      connectstring: '127.0.0.1:1186',
      mgmd: { host: '127.0.0.1', port: 1186, nodeId: 145, since: 0 },
      serverVersion: '9.3.0',
      failovers: 0,
      lastError: null,
      eventStream: { status: 'live' },
    },
    sampledAt: 1000,
    nodes,
    nodeGroups: [],
    masterNodeId: 1,
    singleUserApiNodeId: null,
    rates: null,
    backup: null,
    alerts: [],
    ...patch,
  };
}

export function event(seq: number, patch: Partial<EventView> = {}): EventView {
  return {
    seq,
    at: 1000 + seq,
    typeId: 13,
    name: 'StartPhaseCompleted',
    category: 'STARTUP',
    severity: 'INFO',
    sourceNodeId: 1,
    subjectNodeId: null,
    text: `event ${seq}`,
    fields: {},
    ...patch,
  };
}

export function alert(id: string, patch: Partial<Alert> = {}): Alert {
  return { id, kind: 'node-group-degraded', severity: 'warning', at: 1000, nodeId: null, message: `alert ${id}`, acknowledged: false, resolvedAt: null, ...patch };
}
