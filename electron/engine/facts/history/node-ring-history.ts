import { HistoryRing } from './history-ring.js';

/** A history of per-node columns in one ring, resizable, remembering which nodes it ever had figures for. */
export abstract class NodeRingHistory {
  protected readonly ring: HistoryRing;
  protected readonly nodeIds = new Set<number>();

  constructor(capacity: number) {
    this.ring = new HistoryRing(capacity);
  }

  resize(capacity: number): void {
    this.ring.resize(capacity);
  }

  knownNodeIds(): number[] {
    return [...this.nodeIds].sort((a, b) => a - b);
  }
}
