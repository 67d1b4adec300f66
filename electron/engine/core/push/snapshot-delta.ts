import { sameValue } from '../../../contract/page-safe/same-value.js';
import type { ClusterSnapshot, SnapshotDelta } from '../../../contract/schemas/snapshot.js';

const SCALARS = ['connection', 'sampledAt', 'nodeGroups', 'masterNodeId', 'singleUserApiNodeId', 'rates', 'backup', 'backups', 'alerts', 'configGeneration', 'runs', 'maintenance', 'rollingRestart', 'rollingPlan', 'ndbinfo'] as const;

interface ById {
  nodeId: number;
}

/** Items of `next` that differ from `prev`'s of the same id, and the ids gone. */
function changedById<T extends ById>(prev: readonly T[], next: readonly T[]): { changed: T[]; removed: number[] } {
  // Most pushes have the nodes of the last one in the same order (both sorted by id): compared in step, no index.
  if (prev.length === next.length && prev.every((p, i) => p.nodeId === next[i]?.nodeId)) {
    return { changed: next.filter((n, i) => !sameValue(prev[i], n)), removed: [] };
  }
  const before = new Map(prev.map((n) => [n.nodeId, n]));
  const present = new Set(next.map((n) => n.nodeId));
  return { changed: next.filter((n) => !sameValue(before.get(n.nodeId), n)), removed: prev.filter((n) => !present.has(n.nodeId)).map((n) => n.nodeId) };
}

function mergeById<T extends ById>(items: readonly T[], removed: readonly number[] | undefined, changed: readonly T[] | undefined): T[] {
  const byId = new Map(items.map((n) => [n.nodeId, n]));
  for (const id of removed ?? []) byId.delete(id);
  for (const n of changed ?? []) byId.set(n.nodeId, n);
  return [...byId.values()].sort((a, b) => a.nodeId - b.nodeId);
}

/** What changed from `prev` to `next`: nodes whole and by id, other parts only when they differ. null: nothing. */
export function diffSnapshots(prev: ClusterSnapshot, next: ClusterSnapshot, baseVersion: number): SnapshotDelta | null {
  const delta: SnapshotDelta = { clusterId: next.clusterId, baseVersion, version: baseVersion + 1 };
  const nodes = changedById(prev.nodes, next.nodes);
  if (nodes.changed.length > 0) delta.nodes = nodes.changed;
  if (nodes.removed.length > 0) delta.removedNodeIds = nodes.removed;
  // ndbinfo figures by node as well: a second's CPU reading moves the threads of the nodes it changed only.
  const inside = changedById(prev.ndbinfoNodes ?? [], next.ndbinfoNodes ?? []);
  if (inside.changed.length > 0) delta.ndbinfoNodes = inside.changed;
  if (inside.removed.length > 0) delta.removedNdbinfoNodeIds = inside.removed;
  let changed = nodes.changed.length + nodes.removed.length + inside.changed.length + inside.removed.length > 0;
  for (const key of SCALARS) {
    if (sameValue(prev[key], next[key])) continue;
    Object.assign(delta, { [key]: next[key] });
    changed = true;
  }
  return changed ? delta : null;
}

/** The UI's side of a delta; the engine uses it to check recordings against their replay. */
export function applyDelta(snapshot: ClusterSnapshot, delta: SnapshotDelta): ClusterSnapshot {
  const next: ClusterSnapshot = { ...snapshot, nodes: mergeById(snapshot.nodes, delta.removedNodeIds, delta.nodes) };
  if (delta.ndbinfoNodes || delta.removedNdbinfoNodeIds) next.ndbinfoNodes = mergeById(snapshot.ndbinfoNodes ?? [], delta.removedNdbinfoNodeIds, delta.ndbinfoNodes);
  for (const key of SCALARS) if (delta[key] !== undefined) Object.assign(next, { [key]: delta[key] });
  return next;
}
