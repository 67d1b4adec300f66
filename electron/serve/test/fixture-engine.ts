import type { EngineHandlers } from '../../contract/page-safe/api.js';
import type { PushMessage } from '../../contract/schemas/channels.js';
import type { NodeView } from '../../contract/schemas/node.js';
import type { ClusterSnapshot } from '../../contract/schemas/snapshot.js';
import type { EngineHost } from '../../engine/core/engine-host.js';

/**
 * A transport-level stand-in for the engine: fixed, schema-valid data and a push stream the test drives. Only
 * for tests of the transports themselves (framing, validation, auth); end-to-end tests use the real engine.
 */
function node(nodeId: number, type: NodeView['type'], status: NodeView['status']): NodeView {
  return {
    nodeId,
    type,
    status,
    statusRaw: status,
    startPhase: 0,
    nodeGroup: type === 'NDB' ? 0 : null,
    version: '9.3.0',
    versionRaw: 0x090300,
    mysqlVersion: null,
    address: '127.0.0.1',
    connectCount: 1,
    dynamicId: nodeId,
    isSingleUser: null,
    isMaster: nodeId === 1,
    statusSince: 1_700_000_000_000,
    restart: null,
    safeToStop: type === 'NDB' ? true : null,
    memory: { data: { usedPages: 10, totalPages: 100, pageSizeBytes: 32768, percent: 10, stale: false }, index: null },
    rates: null,
  };
}

export const FIXTURE_SNAPSHOT: ClusterSnapshot = {
  clusterId: 'c1',
  name: 'fixture',
  connection: {
    mode: 'simulated',
    status: 'live',
    connectstring: 'localhost:1186',
    mgmd: { host: '127.0.0.1', port: 1186, nodeId: 49, since: 1_700_000_000_000 },
    serverVersion: '9.3.0',
    failovers: 0,
    lastError: null,
    eventStream: { status: 'live' },
  },
  sampledAt: 1_700_000_000_000,
  nodes: [node(1, 'NDB', 'STARTED'), node(2, 'NDB', 'NO_CONTACT'), node(49, 'MGM', 'CONNECTED')],
  nodeGroups: [{ nodeGroup: 0, nodeIds: [1, 2], live: 1, health: 'DEGRADED' }],
  masterNodeId: 1,
  singleUserApiNodeId: null,
  rates: null,
  backup: null,
  alerts: [],
};

export interface FixtureEngine extends EngineHost {
  push(message: PushMessage): void;
  readonly subscribers: number;
}

export function createFixtureEngine(): FixtureEngine {
  const listeners = new Set<(message: PushMessage) => void>();
  const notInFixture = async (): Promise<never> => {
    throw Object.assign(new Error('not part of the fixture'), { code: 'UNSUPPORTED' });
  };
  const handlers: EngineHandlers = {
    getAppInfo: async () => ({ version: '0.0.0', host: 'serve', actionsEnabled: false }),
    listClusters: async () => [{ clusterId: 'c1', name: 'fixture', connectstring: 'localhost:1186', mode: 'simulated', status: 'live' }],
    getSnapshot: async () => FIXTURE_SNAPSHOT,
    getClusterConfig: async () => null,
    getCounters: async () => ({ clusterId: 'c1', nodes: [], alerts: [], maintenance: { opened: 0, extended: 0, closed: 0, expired: 0 } }),
    runAction: async () => {
      throw Object.assign(new Error('operator actions are disabled'), { code: 'FORBIDDEN' });
    },
    addCluster: notInFixture,
    removeCluster: notInFixture,
    getHistory: notInFixture,
    getTimeline: notInFixture,
    getThreadSeries: notInFixture,
    getThreadPoint: notInFixture,
    getLinks: notInFixture,
    getEvents: notInFixture,
    acknowledgeAlert: notInFixture,
    previewAction: notInFixture,
    getSettings: notInFixture,
    updateSettings: notInFixture,
    listProfiles: notInFixture,
    saveProfile: notInFixture,
    deleteProfile: notInFixture,
    exportHistory: notInFixture,
    startRun: notInFixture,
    markPhase: notInFixture,
    stopRun: notInFixture,
    getRunReports: notInFixture,
    exportRuns: notInFixture,
    listImportedRuns: notInFixture,
    startMaintenance: notInFixture,
    stopMaintenance: notInFixture,
    extendMaintenance: notInFixture,
    listMaintenance: notInFixture,
    getAlertHistory: notInFixture,
    getIncidents: notInFixture,
    listIncidents: notInFixture,
    getIncident: notInFixture,
    getRollingRestart: notInFixture,
    planRollingRestart: notInFixture,
    startRollingRestart: notInFixture,
    haltRollingRestart: notInFixture,
    resumeRollingRestart: notInFixture,
    abortRollingRestart: notInFixture,
    getBackups: async () => ({ running: null, last: [] }),
  };
  return {
    handlers,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    push(message) {
      for (const l of listeners) l(message);
    },
    get subscribers() {
      return listeners.size;
    },
    close: async () => listeners.clear(),
  };
}
