import type { ConfigChange } from '../../../contract/schemas/config.js';
import type { ClusterConfig } from '../../../../native-mgm/index.js';

/**
 * What differs between two configurations, parameter by parameter and node by node; system entries (Name) with
 * a null node id. Connections are left out: they follow from the nodes.
 */
export function diffConfigs(before: ClusterConfig, after: ClusterConfig): ConfigChange[] {
  const changes: ConfigChange[] = [];
  if (before.name !== after.name) changes.push({ nodeId: null, param: 'Name', before: before.name, after: after.name });
  const old = new Map(before.nodes.map((n) => [n.nodeId, n]));
  const now = new Map(after.nodes.map((n) => [n.nodeId, n]));
  for (const id of [...new Set([...old.keys(), ...now.keys()])].sort((a, b) => a - b)) {
    const a = old.get(id)?.params ?? {};
    const b = now.get(id)?.params ?? {};
    for (const param of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const x = a[param] ?? null;
      const y = b[param] ?? null;
      if (x !== y) changes.push({ nodeId: id, param, before: x, after: y });
    }
  }
  return changes;
}

/** "DataMemory 2147483648 → 4294967296 on nodes 2, 3, 4, 5; node 9 added": one line for the event log. */
export function describeChanges(changes: readonly ConfigChange[]): string {
  const byWhat = new Map<string, number[]>();
  for (const c of changes) {
    const what = c.before === null && c.param === 'NodeId' ? 'added' : c.after === null && c.param === 'NodeId' ? 'removed' : c.before === null || c.after === null ? null : `${c.param} ${c.before} → ${c.after}`;
    if (what === null || (c.param !== 'NodeId' && (c.before === null || c.after === null))) continue;
    byWhat.set(what, [...(byWhat.get(what) ?? []), c.nodeId ?? 0]);
  }
  const parts = [...byWhat].map(([what, ids]) =>
    what === 'added' || what === 'removed' ? `${ids.length === 1 ? 'node' : 'nodes'} ${ids.join(', ')} ${what}` : `${what}${ids[0] === 0 ? '' : ` on ${ids.length === 1 ? 'node' : 'nodes'} ${ids.join(', ')}`}`,
  );
  if (parts.length === 0) return 'no parameter changed';
  return parts.length > 4 ? `${parts.slice(0, 4).join('; ')}; and ${parts.length - 4} more` : parts.join('; ');
}
