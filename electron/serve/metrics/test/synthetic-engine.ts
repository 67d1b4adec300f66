import type { NodeStatus, NodeType } from '../../../contract/schemas/node.js';
import { Engine } from '../../../engine/engine.js';
import { DATA_MEMORY_BLOCK, INDEX_MEMORY_BLOCK } from '../../../engine/cluster/memory.js';
import { DEFAULT_SETTINGS, SettingsStore } from '../../../engine/core/settings-store.js';
import { createMetricsExporter } from '../exporter.js';
import { parsePrometheusText, type Sample } from '../../test/prom-text.js';
import type { ClusterEvent, NodeState } from '../../../../native-mgm/index.js';
import type { ReadingKey, ReadingRows } from '../../../../ndbinfo/client/rows.js';

export interface ClusterShape {
  name: string;
  dataNodes: number;
  apiNodes: number;
  mgmNodes: number;
  replicas: number;
}

/** The largest cluster NDB allows: 144 data nodes, 2 management servers, the other 109 ids API slots. */
export const LARGEST: ClusterShape = { name: 'largest', dataNodes: 144, apiNodes: 109, mgmNodes: 2, replicas: 2 };

function nodeState(nodeId: number, type: NodeType, status: NodeStatus, nodeGroup: number | null): NodeState {
  return {
    nodeId,
    type,
    status,
    statusRaw: status,
    startPhase: 0,
    nodeGroup,
    version: '8.4.3',
    versionRaw: 0x080403,
    mysqlVersion: null,
    mysqlVersionRaw: 0,
    address: '10.0.0.1',
    connectCount: 1,
    dynamicId: nodeId,
    isSingleUser: false,
    isMaster: nodeId === 1,
    extra: {},
  };
}

export function statisticsEvent(name: 'TransReportCounters' | 'OperationReportCounters', nodeId: number, at: number, fields: Record<string, number>): ClusterEvent {
  return { typeId: name === 'TransReportCounters' ? 35 : 36, name, category: 'STATISTICS', severity: 'INFO', sourceNodeId: nodeId, receivedAt: at, fields, data: null, known: true, raw: {} };
}

function memoryEvent(nodeId: number, at: number, block: number, used: number, total: number): ClusterEvent {
  return {
    typeId: 50,
    name: 'MemoryUsage',
    category: 'STATISTICS',
    severity: 'INFO',
    sourceNodeId: nodeId,
    receivedAt: at,
    fields: { gth: 0, page_size_bytes: 32768, pages_used: used, pages_total: total, block },
    data: null,
    known: true,
    raw: {},
  };
}

/**
 * A real Engine (trackers, rates, totals, alerts) fed with inputs as the monitor would feed it, without a network:
 * for exporter tests and the scrape benchmark, where the shape of a 255-node cluster matters and the wire does not.
 */
export class SyntheticClusters {
  readonly engine = new Engine({ host: 'serve', version: '9.9.9-test', actionsEnabled: false, settings: new SettingsStore(DEFAULT_SETTINGS), recorder: null });
  private readonly status = new Map<string, Map<number, NodeState>>();
  now = 1_800_000_000_000;

  add(shape: ClusterShape): string {
    const id = this.engine.addCluster(shape.name, `${shape.name}.example:1186`, 'live', undefined, this.now).id;
    const nodes = new Map<number, NodeState>();
    let next = 1;
    for (let i = 0; i < shape.mgmNodes; i++, next++) nodes.set(next, nodeState(next, 'MGM', 'CONNECTED', null));
    for (let i = 0; i < shape.dataNodes; i++, next++) nodes.set(next, nodeState(next, 'NDB', 'STARTED', Math.floor(i / shape.replicas)));
    for (let i = 0; i < shape.apiNodes; i++, next++) nodes.set(next, nodeState(next, 'API', i % 2 === 0 ? 'CONNECTED' : 'NO_CONTACT', null));
    this.status.set(id, nodes);
    const connection = { status: 'live' as const, connectstring: `${shape.name}.example:1186`, mgmd: { host: 'mgmd', port: 1186, nodeId: 1, since: this.now }, serverVersion: '8.4.3', failovers: 0, lastError: null, eventStream: { status: 'live' as const } };
    this.engine.feed(id, { kind: 'connection', t: this.now, connection });
    this.poll(id);
    this.refreshMemory(id, this.dataNodes(id));
    return id;
  }

  /** One `dump events 50` reply: two figures from each node of `answering`. */
  refreshMemory(id: string, answering: readonly number[]): void {
    this.engine.feed(id, { kind: 'memory', t: this.now, events: answering.flatMap((n) => [memoryEvent(n, this.now, DATA_MEMORY_BLOCK, 1000 + n, 65536), memoryEvent(n, this.now, INDEX_MEMORY_BLOCK, 100, 2048)]) });
  }

  dataNodes(id: string): number[] {
    return [...(this.status.get(id)?.values() ?? [])].filter((n) => n.type === 'NDB').map((n) => n.nodeId);
  }

  /** A `get status` answer with the nodes as they are now. */
  poll(id: string): void {
    this.now += 100;
    this.engine.feed(id, { kind: 'status', t: this.now, requestedAt: this.now - 10, nodes: [...(this.status.get(id)?.values() ?? [])].map((n) => ({ ...n })) });
  }

  setStatus(id: string, nodeId: number, status: NodeStatus, startPhase = 0): void {
    const node = this.status.get(id)?.get(nodeId);
    if (!node) throw new Error(`no node ${nodeId}`);
    node.status = status;
    node.statusRaw = status;
    node.startPhase = startPhase;
    this.poll(id);
  }

  /**
   * One reading of each ndbinfo table the exporter turns into families, from an SQL source that is up: two threads,
   * a redo log, disk figures per data node, and a link from each data node to the next (the first one overloaded).
   */
  ndbinfo(id: string): void {
    const nodes = this.dataNodes(id);
    const at = this.now;
    const feed = <K extends ReadingKey>(reading: K, rows: ReadingRows[K][]): void => this.engine.feed(id, { kind: 'ndbinfo', t: at, sample: { reading, sqlNode: 'mysql://monitor@sql1:3306', at, durationMs: 5, rows } });
    this.engine.feed(id, { kind: 'ndbinfo-link', t: at, state: { kind: 'up', at, sqlNode: 'mysql://monitor@sql1:3306', serverVersion: '8.4.3', tls: false, tables: [], missing: [], failedOverFrom: null, failovers: 0 } });
    const cpu = { osUser: 40, osSystem: 5, osIdle: 55, threadExec: 40, threadSleeping: 55, threadSpinning: 0, threadSend: 5, threadBufferFull: 0, elapsedTime: 1_000_000 };
    feed('cpu', nodes.flatMap((nodeId) => [{ nodeId, thrNo: 0, threadName: 'main', ...cpu }, { nodeId, thrNo: 1, threadName: 'ldm', ...cpu }]));
    feed('logspaces', nodes.map((nodeId) => ({ nodeId, logType: 'REDO', logId: 0, logPart: 0, total: 1 << 30, used: 1 << 28 })));
    const counts = { pagesWritten: 1, pagesWrittenLcp: 1, pagesRead: 1, logWaits: 0, pageRequestsDirectReturn: 99, pageRequestsWaitQueue: 0, pageRequestsWaitIo: 1 };
    feed('diskPageBuffer', nodes.map((nodeId) => ({ nodeId, blockInstance: 1, ...counts, perSec: counts, hitRatio: 0.99, hitRatioSinceStart: 0.99 })));
    const speeds = { backupLcpSpeedLastSec: 1e6, redoSpeedLastSec: 2e6, backupLcpSpeedLast10sec: 1e6, redoSpeedLast10sec: 2e6, stdDevBackupLcpSpeedLast10sec: 0, stdDevRedoSpeedLast10sec: 0, backupLcpSpeedLast60sec: 1e6, redoSpeedLast60sec: 2e6, stdDevBackupLcpSpeedLast60sec: 0, stdDevRedoSpeedLast60sec: 0, currentTargetDiskWriteSpeed: 2e7 };
    const slow = { slowdownsDueToIoLag: 0, slowdownsDueToHighCpu: 0, diskWriteSpeedSetToMin: 0 };
    feed('diskWriteSpeed', nodes.map((nodeId) => ({ nodeId, ...speeds, ...slow, perSec: slow })));
    feed(
      'transporters',
      nodes.map((nodeId, i) => {
        const bytes = { bytesSent: 1000, bytesReceived: 1000, overloadCount: i === 0 ? 1 : 0, slowdownCount: i === 0 ? 1 : 0 };
        return { nodeId, remoteNodeId: nodes[(i + 1) % nodes.length] ?? nodeId, status: 'CONNECTED', remoteAddress: '10.0.0.1', connectCount: 1, overloaded: i === 0 ? 1 : 0, slowdown: i === 0 ? 1 : 0, ...bytes, perSec: bytes };
      }),
    );
  }

  /** One reading of restart_info with one row: the node's restart at status `statusName`. */
  restartInfo(id: string, nodeId: number, statusName: string, statusInt: number): void {
    this.now += 100;
    const row = { nodeId, status: statusName.replace(/_/g, ' ').toLowerCase(), statusInt, statusName, phases: { secs_to_complete_node_failure: 1 }, totalSecs: 1 };
    this.engine.feed(id, { kind: 'ndbinfo', t: this.now, sample: { reading: 'restarts', sqlNode: 'mysql://monitor@sql1:3306', at: this.now, durationMs: 5, rows: [row] } });
  }

  /** One report period: every TC instance of every node reports `perInstance` transactions, every LQH instance `ops`. */
  report(id: string, nodeIds: readonly number[], instances: number, perInstance: number, ops = perInstance * 8): void {
    for (let i = 0; i < instances; i++) {
      for (const n of nodeIds) {
        this.now += 1;
        this.engine.feed(id, {
          kind: 'event',
          t: this.now,
          event: statisticsEvent('TransReportCounters', n, this.now, { trans_count: perInstance, commit_count: perInstance - 1, read_count: perInstance * 5, simple_read_count: perInstance, write_count: perInstance * 2, attrinfo_count: perInstance * 14, conc_op_count: 3, abort_count: 1, scan_count: 0, range_scan_count: 2 }),
        });
        this.engine.feed(id, { kind: 'event', t: this.now, event: statisticsEvent('OperationReportCounters', n, this.now, { ops }) });
      }
    }
    this.now += 5000 - instances * nodeIds.length;
    this.poll(id);
  }
}

/**
 * One scrape of the largest cluster after a report period of every instance: what a 255-node exporter serves; with
 * `ndbinfo`, after one reading of its SQL source too.
 */
export async function scrapeLargest(options: { ndbinfo?: boolean } = {}): Promise<Sample[]> {
  const clusters = new SyntheticClusters();
  try {
    const id = clusters.add(LARGEST);
    clusters.report(id, clusters.dataNodes(id), 4, 10);
    if (options.ndbinfo) clusters.ndbinfo(id);
    const result = await createMetricsExporter(clusters.engine.handlers).scrape();
    if (!result.ok) throw new Error(result.message);
    return parsePrometheusText(result.body).samples;
  } finally {
    await clusters.engine.close();
  }
}
