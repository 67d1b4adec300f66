/**
 * What the rooms changed of the nodes' views since they were last built. An input that may change what more than
 * one node shows (a status, a group, the configuration, any event but a report) bumps the epoch; statistics and
 * memory reports, hundreds a second under load, only bump their node's stamp: a push then rebuilds the few nodes
 * that reported, not all 255, and the delta compares the rest by identity. `urgent` is what must reach the
 * screen at once: an alert, a data node leaving or reaching the up state.
 */
export class ViewChanges {
  private epochCount = 0;
  private marks = 0;
  private readonly stamps = new Map<number, number>();
  private urgentChange = false;

  get epoch(): number {
    return this.epochCount;
  }

  /** Moves with every change marked here, of any kind: an input that leaves it alone changed none of them. */
  get revision(): number {
    return this.marks;
  }

  /** Something more than one node may show changed. */
  all(): void {
    this.epochCount++;
    this.marks++;
  }

  /** Something only this node shows changed (its poll line, rates, memory). */
  node(id: number): void {
    this.stamps.set(id, this.stamp(id) + 1);
    this.marks++;
  }

  /** Something the snapshot shows beside the nodes' views changed: an alert is over, or its words changed. */
  other(): void {
    this.marks++;
  }

  stamp(id: number): number {
    return this.stamps.get(id) ?? 0;
  }

  forget(id: number): void {
    this.stamps.delete(id);
  }

  urgent(): void {
    this.urgentChange = true;
    this.marks++;
  }

  /** Whether anything urgent happened since the last call. */
  takeUrgent(): boolean {
    const urgent = this.urgentChange;
    this.urgentChange = false;
    return urgent;
  }
}
