import { sameValue, type NodeView } from '../contract.js';

export { sameValue };

/**
 * Merges incoming node views into the map, keeping the old object whenever the node did not really change, so
 * a memoised card that selects `nodes.get(id)` sees the same reference and does not re-render.
 */
export function mergeNodes(
  prev: ReadonlyMap<number, NodeView>,
  incoming: readonly NodeView[],
  removedIds: readonly number[] = [],
  replaceAll = false,
): ReadonlyMap<number, NodeView> {
  const next = new Map(prev);
  let changed = false;
  const drop = (id: number): void => {
    changed = next.delete(id) || changed;
  };
  if (replaceAll) {
    const keep = new Set(incoming.map((n) => n.nodeId));
    for (const id of prev.keys()) if (!keep.has(id)) drop(id);
  }
  removedIds.forEach(drop);
  let added = false;
  for (const node of incoming) {
    const old = prev.get(node.nodeId);
    if (old && sameValue(old, node)) continue;
    added ||= !old;
    changed = true;
    next.set(node.nodeId, node);
  }
  if (!changed) return prev;
  // Map order is insertion order; keep it by node id so the grid never has to sort.
  return added ? new Map([...next.entries()].sort((a, b) => a[0] - b[0])) : next;
}
