import type { ClusterEvent, NodeState, NodeStatus, NodeType } from '../../../native-mgm/index.js';
import { ClusterTracker, type TrackerListener, type TrackerOptions } from '../cluster/cluster-tracker.js';

export const quietListener: TrackerListener = { changed: () => undefined, events: () => undefined, alert: () => undefined, history: () => undefined };

/** A STATISTICS event as the client parses it, received at `at`. */
export function statisticsEvent(name: string, typeId: number, node: number, at: number, fields: Record<string, number>): ClusterEvent {
  return { typeId, name, category: 'STATISTICS', severity: 'INFO', sourceNodeId: node, receivedAt: at, fields, data: null, known: true, raw: {} };
}

/** A data-memory MemoryUsage record (gth 0) of a 1000-page node at `percent`. */
export function dataMemoryEvent(node: number, at: number, percent: number): ClusterEvent {
  return statisticsEvent('MemoryUsage', 50, node, at, { gth: 0, page_size_bytes: 32768, pages_used: percent * 10, pages_total: 1000, block: 249 });
}

/** A `get status` line as the client parses it. */
export function nodeState(nodeId: number, type: NodeType, status: NodeStatus, nodeGroup: number | null = null): NodeState {
  return {
    nodeId,
    type,
    status,
    statusRaw: status,
    startPhase: 0,
    nodeGroup: status === 'STARTED' ? nodeGroup : null,
    version: '9.0.0',
    versionRaw: 0x090000,
    mysqlVersion: null,
    mysqlVersionRaw: 0,
    address: status === 'STARTED' || status === 'CONNECTED' ? `10.0.0.${nodeId}` : null,
    connectCount: 1,
    dynamicId: null,
    isSingleUser: false,
    isMaster: false,
    extra: {},
  };
}

/**
 * A cluster of `dataNodes` data nodes in groups of two and one management server, fed to a tracker poll by poll:
 * `set` changes statuses and `poll` answers `get status` at a time of the test's choosing.
 */
export class PolledCluster {
  readonly tracker: ClusterTracker;
  private readonly statuses = new Map<number, NodeStatus>();

  constructor(
    readonly dataNodes: number,
    options: Partial<TrackerOptions> = {},
    listener: TrackerListener = quietListener,
  ) {
    this.tracker = new ClusterTracker('c1', 'test', { connectstring: 'localhost:1186', mode: 'live', historySeconds: 3600, ...options }, listener);
    for (let id = 1; id <= dataNodes; id++) this.statuses.set(id, 'STARTED');
  }

  set(id: number, status: NodeStatus): this {
    this.statuses.set(id, status);
    return this;
  }

  states(): NodeState[] {
    const data = [...this.statuses].map(([id, status]) => nodeState(id, 'NDB', status, Math.floor((id - 1) / 2)));
    return [...data, nodeState(this.dataNodes + 1, 'MGM', 'CONNECTED')];
  }

  poll(t: number): void {
    this.tracker.apply({ kind: 'status', t, requestedAt: t - 5, nodes: this.states() });
  }
}
