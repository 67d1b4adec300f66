/** A data node out of the up state: from when it left (or ndbtop first saw it down) until it was back. */
export interface Outage {
  nodeId: number;
  downAt: number;
  upAt: number | null;
}

/** Enough for a night of rolling restarts of 255 data nodes, bounded all the same. */
const KEPT = 5000;

/**
 * Every data node's times out of the up state, as status changes tell them, so a run's report can say which nodes
 * went down during it and for how long (a rolling restart's per-node times, a failure in a benchmark).
 */
export class NodeOutages {
  private readonly outages: Outage[] = [];
  private readonly open = new Map<number, Outage>();

  change(nodeId: number, up: boolean, at: number): void {
    const open = this.open.get(nodeId);
    if (up) {
      if (open) open.upAt = at;
      this.open.delete(nodeId);
      return;
    }
    if (open) return;
    const outage = { nodeId, downAt: at, upAt: null };
    this.open.set(nodeId, outage);
    this.outages.push(outage);
    if (this.outages.length > KEPT) this.outages.splice(0, this.outages.length - KEPT);
  }

  /** Out at some moment of [from, to], in the order they went down. */
  during(from: number, to: number): Outage[] {
    return this.outages.filter((o) => o.downAt <= to && (o.upAt === null || o.upAt >= from)).map((o) => ({ ...o }));
  }
}
