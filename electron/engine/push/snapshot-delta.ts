import { sameValue } from '../../contract/same-value.js';
import type { ClusterSnapshot, SnapshotDelta } from '../../contract/snapshot.js';

const SCALARS = ['connection', 'sampledAt', 'nodeGroups', 'masterNodeId', 'singleUserApiNodeId', 'rates', 'backup', 'alerts', 'configGeneration', 'runs', 'maintenance', 'rollingRestart'] as const;


/** What changed from `prev` to `next`: nodes whole and by id, other parts only when they differ. null: nothing. */
export function diffSnapshots(prev: ClusterSnapshot, next: ClusterSnapshot, baseVersion: number): SnapshotDelta | null {
  const delta: SnapshotDelta = { clusterId: next.clusterId, baseVersion, version: baseVersion + 1 };
  let changed = false;
  const before = new Map(prev.nodes.map((n) => [n.nodeId, n]));
  const nodes = next.nodes.filter((n) => !sameValue(before.get(n.nodeId), n));
  if (nodes.length > 0) {
    delta.nodes = nodes;
    changed = true;
  }
  const present = new Set(next.nodes.map((n) => n.nodeId));
  const removed = prev.nodes.filter((n) => !present.has(n.nodeId)).map((n) => n.nodeId);
  if (removed.length > 0) {
    delta.removedNodeIds = removed;
    changed = true;
  }
  for (const key of SCALARS) {
    if (sameValue(prev[key], next[key])) continue;
    Object.assign(delta, { [key]: next[key] });
    changed = true;
  }
  return changed ? delta : null;
}

/** The UI's side of a delta; the engine uses it to check recordings against their replay. */
export function applyDelta(snapshot: ClusterSnapshot, delta: SnapshotDelta): ClusterSnapshot {
  const nodes = new Map(snapshot.nodes.map((n) => [n.nodeId, n]));
  for (const id of delta.removedNodeIds ?? []) nodes.delete(id);
  for (const n of delta.nodes ?? []) nodes.set(n.nodeId, n);
  const next: ClusterSnapshot = { ...snapshot, nodes: [...nodes.values()].sort((a, b) => a.nodeId - b.nodeId) };
  for (const key of SCALARS) if (delta[key] !== undefined) Object.assign(next, { [key]: delta[key] });
  return next;
}
