import { sameValue, type NodeView } from '../contract.js';

export { sameValue };

/**
 * Merges incoming node views into the map, keeping the old object whenever the node did not really change, so
 * a memoised card that selects `nodes.get(id)` sees the same reference and does not re-render. Only the nodes a
 * push carries are compared; a push that changes none of them (and removes none) returns `prev` itself, so
 * whatever is derived from the map (`perNodeMap`) is not derived again. The same for a node's ndbinfo figures.
 */
export function mergeNodes<T extends { nodeId: number }>(prev: ReadonlyMap<number, T>, incoming: readonly T[], removedIds: readonly number[] = [], replaceAll = false): ReadonlyMap<number, T> {
  const changed = incoming.filter((node) => {
    const old = prev.get(node.nodeId);
    return !old || !sameValue(old, node);
  });
  const kept = replaceAll ? new Set(incoming.map((n) => n.nodeId)) : null;
  const gone = kept ? [...prev.keys()].filter((id) => !kept.has(id)) : removedIds.filter((id) => prev.has(id));
  if (changed.length === 0 && gone.length === 0) return prev;
  const next = new Map(prev);
  for (const id of gone) next.delete(id);
  let added = false;
  for (const node of changed) {
    added ||= !prev.has(node.nodeId);
    next.set(node.nodeId, node);
  }
  // Map order is insertion order; keep it by node id so the grid never has to sort.
  return added ? new Map([...next.entries()].sort((a, b) => a[0] - b[0])) : next;
}

/**
 * A function of the node map, computed once per map. The store replaces the map only when a node changed, so a
 * selector made with this (the grid's shape, the API node list) costs nothing on the pushes that leave the nodes
 * alone (history points, events, alerts: every store change runs every selector), and on those that change them it
 * is computed once, however many components select it.
 */
export function perNodeMap<T>(compute: (nodes: ReadonlyMap<number, NodeView>) => T): (nodes: ReadonlyMap<number, NodeView>) => T {
  let last: ReadonlyMap<number, NodeView> | null = null;
  let value: T;
  return (nodes) => {
    if (nodes !== last) {
      value = compute(nodes);
      last = nodes;
    }
    return value;
  };
}
