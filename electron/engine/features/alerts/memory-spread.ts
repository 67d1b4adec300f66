/**
 * When a memory level is the cluster's rather than a few nodes': NDB spreads every table's rows evenly over the node
 * groups (hash partitioning by primary key), so data nodes fill together, within a point or two of each other. Many
 * nodes at a mark at once is the data set outgrowing DataMemory: one condition, one operator decision (add node
 * groups, purge, raise DataMemory), so one alert, not one per node. A few nodes alone at it are skew: a node group
 * added and not yet reorganised, a table with few partitions, a node that restarted with a fuller log; those nodes
 * are what the operator must look at, so they keep their own alerts.
 *
 * "Many" is more than a quarter of the data nodes, and never fewer than one node group's worth: both replicas of a
 * group hold the same fragments and fill together, so one skewed group is two (NoOfReplicas) nodes that keep their
 * per-node alerts, and a quarter leaves room for several skewed groups (18 groups at 144 data nodes) before a
 * crossing reads as the whole cluster's. Counted are the nodes within the level's hysteresis band (at or above its
 * clear mark), since nodes that fill together cross the mark over a few seconds, not in the same report.
 */
export function clusterWideAbove(dataNodes: number, replicas: number | null): number {
  return Math.max(replicas ?? 2, Math.ceil(dataNodes / 4));
}

export function isClusterWide(nearMark: number, dataNodes: number, replicas: number | null): boolean {
  return nearMark > clusterWideAbove(dataNodes, replicas);
}
