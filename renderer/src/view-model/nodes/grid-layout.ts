import type { NodeGroupView, NodeView } from '../../contract.js';

export type GridSection =
  | { kind: 'nodegroup'; nodeGroup: number; nodeIds: number[] }
  | { kind: 'ungrouped'; nodeIds: number[] }
  | { kind: 'mgm'; nodeIds: number[] }
  | { kind: 'api'; nodeIds: number[]; freeSlots: number[] };

/** An API slot nobody uses: listed by the management server, never connected. Folded into a count. */
export function isFreeApiSlot(node: NodeView): boolean {
  return node.type === 'API' && node.status !== 'CONNECTED' && node.address === null;
}

/**
 * What decides the grid's shape, as a string: the grid component selects this (a primitive, so Object.is works) and
 * re-renders only when the shape changes, never on a mere status or rate update.
 */
export function layoutKey(nodes: ReadonlyMap<number, NodeView>): string {
  let key = '';
  for (const n of nodes.values()) key += `${n.nodeId}:${n.type}:${String(n.nodeGroup)}:${isFreeApiSlot(n) ? 'f' : 'u'};`;
  return key;
}

export function gridSections(nodes: ReadonlyMap<number, NodeView>, nodeGroups: readonly NodeGroupView[]): GridSection[] {
  const all = [...nodes.values()].sort((a, b) => a.nodeId - b.nodeId);
  const dataNodes = all.filter((n) => n.type === 'NDB');
  const groups = new Map<number, number[]>();
  for (const g of nodeGroups) groups.set(g.nodeGroup, []);
  const ungrouped: number[] = [];
  for (const n of dataNodes) {
    const g = typeof n.nodeGroup === 'number' ? n.nodeGroup : null;
    if (g === null) ungrouped.push(n.nodeId);
    else groups.set(g, [...(groups.get(g) ?? []), n.nodeId]);
  }
  const sections: GridSection[] = [...groups.entries()]
    .sort((a, b) => a[0] - b[0])
    .filter(([, ids]) => ids.length > 0)
    .map(([nodeGroup, nodeIds]) => ({ kind: 'nodegroup', nodeGroup, nodeIds }));
  if (ungrouped.length > 0) sections.push({ kind: 'ungrouped', nodeIds: ungrouped });
  const mgm = all.filter((n) => n.type === 'MGM').map((n) => n.nodeId);
  if (mgm.length > 0) sections.push({ kind: 'mgm', nodeIds: mgm });
  const api = all.filter((n) => n.type === 'API');
  if (api.length > 0) {
    sections.push({
      kind: 'api',
      nodeIds: api.filter((n) => !isFreeApiSlot(n)).map((n) => n.nodeId),
      freeSlots: api.filter(isFreeApiSlot).map((n) => n.nodeId),
    });
  }
  return sections;
}
