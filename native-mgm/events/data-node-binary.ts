import type { ClusterEvent, DataNodeBinary, NodeState } from '../types.js';

/** JobStatistic and ThreadConfigLoop come from the single-threaded scheduler; MTSignalStatistics from ndbmtd's threads. */
const NDBD_ONLY = new Set([39, 68]);
const NDBMTD_ONLY = 70;
/** TransReportCounters and OperationReportCounters: one per TC or LQH instance every 5 s (spec §7.3). */
const PER_INSTANCE = new Set([35, 36]);
/**
 * One instance reports every 5 s, so two reports of one type from one node closer than this come from two
 * instances. Below 5 s by a margin, so late delivery of one report cannot make a single instance look like two.
 */
const SAME_PERIOD_MS = 4000;

/**
 * Tells ndbd from ndbmtd where spec §14.11 says events can (no command can): STATISTICS=9 events name the binary,
 * and more than one TransReportCounters or OperationReportCounters from a node within one 5 s period means ndbmtd.
 * Exactly one per period proves nothing (ndbmtd with one instance looks the same), so such a node stays unknown.
 * The latest evidence wins, since a node may be restarted with the other binary.
 */
export class DataNodeBinaryEvidence {
  private readonly binary = new Map<number, DataNodeBinary>();
  /** Per node and report type: when its last report arrived. */
  private readonly lastReport = new Map<number, number>();

  observe(event: ClusterEvent): void {
    const node = event.sourceNodeId;
    if (NDBD_ONLY.has(event.typeId)) this.binary.set(node, 'ndbd');
    else if (event.typeId === NDBMTD_ONLY) this.binary.set(node, 'ndbmtd');
    else if (PER_INSTANCE.has(event.typeId)) {
      const key = node * 256 + event.typeId;
      const last = this.lastReport.get(key);
      if (last !== undefined && event.receivedAt - last < SAME_PERIOD_MS) this.binary.set(node, 'ndbmtd');
      this.lastReport.set(key, event.receivedAt);
    }
  }

  /** What the events showed for data node `nodeId`, or null when they showed nothing yet. */
  binaryOf(nodeId: number): DataNodeBinary | null {
    return this.binary.get(nodeId) ?? null;
  }

  /** Sets `dataNodeBinary` on the data nodes of a `get status` whose binary the events showed. */
  annotate(nodes: NodeState[]): void {
    for (const node of nodes) {
      const binary = node.type === 'NDB' ? this.binary.get(node.nodeId) : undefined;
      if (binary !== undefined) node.dataNodeBinary = binary;
    }
  }
}
