/**
 * Node ids handed out by `get nodeid` (spec §4.22), shared by all management servers of the cluster: a session
 * holds its reservation until it ends, as ndb_mgmd's node id allocation does.
 */
export class NodeIdReservations {
  private readonly byNode = new Map<number, object>();

  holder(nodeId: number): object | undefined {
    return this.byNode.get(nodeId);
  }

  reserve(nodeId: number, owner: object): void {
    this.byNode.set(nodeId, owner);
  }

  release(owner: object): void {
    for (const [id, o] of this.byNode) if (o === owner) this.byNode.delete(id);
  }
}
