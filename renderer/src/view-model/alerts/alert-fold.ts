import { ALERT_KIND_LABEL, listNodeIds, MEMORY_RAISE_AT, type Alert, type NodeView } from '../../contract.js';
import { memoryOutdated } from '../nodes/tile-status.js';

/** Active alerts of one kind and severity: one row in the strip however many nodes raised them. */
export interface AlertGroup {
  key: string;
  kind: Alert['kind'];
  severity: Alert['severity'];
  /** In the order given (the strip's: newest first). */
  alerts: Alert[];
  nodeIds: number[];
}

/**
 * Groups in the order their first alert comes in `active`, so critical-first-then-newest still holds. A cluster-wide
 * alert (many data nodes at a memory mark together) is a row of its own: its words already count the nodes.
 */
export function groupAlerts(active: readonly Alert[]): AlertGroup[] {
  const groups = new Map<string, AlertGroup>();
  for (const a of active) {
    const key = a.clusterWide ? `${a.kind}:${a.severity}:cluster:${a.id}` : `${a.kind}:${a.severity}`;
    let g = groups.get(key);
    if (!g) {
      g = { key, kind: a.kind, severity: a.severity, alerts: [], nodeIds: [] };
      groups.set(key, g);
    }
    g.alerts.push(a);
    if (a.nodeId !== null && !g.nodeIds.includes(a.nodeId)) g.nodeIds.push(a.nodeId);
  }
  return [...groups.values()];
}

/** A data node's memory use now (its fuller pool, %), null without a current report. */
export type UseNow = (nodeId: number) => number | null;

/** What the tiles show: a node's memory now, none when out of contact or left out of the last report. */
export function memoryUseNow(nodes: ReadonlyMap<number, NodeView>): UseNow {
  return (id) => {
    const node = nodes.get(id);
    if (!node || memoryOutdated(node)) return null;
    const uses = [node.memory.data, node.memory.index].flatMap((u) => (u && !u.stale ? [u.percent] : []));
    return uses.length > 0 ? Math.max(...uses) : null;
  };
}

/**
 * "memory ≥ 90 % used on 141 of 144 data nodes: 3, 4, 7, …". A memory group also says the nodes' use now, and when
 * every one is back under the mark while the hysteresis holds the alerts, that it was: "memory was ≥ 80 % on 75 of
 * 144 data nodes, now 73–75 %", never a use the tiles beside it contradict.
 */
export function groupTitle(group: AlertGroup, dataNodes: number, useNow?: UseNow): string {
  const n = group.nodeIds.length;
  if (n === 0) return `${ALERT_KIND_LABEL[group.kind]}: ${group.alerts.length} alert${group.alerts.length === 1 ? '' : 's'}`;
  const of = dataNodes >= n ? ` of ${dataNodes} data nodes` : ` node${n === 1 ? '' : 's'}`;
  const now = memoryNow(group, useNow);
  const label = now?.below ? `memory was ≥ ${now.mark} %` : ALERT_KIND_LABEL[group.kind];
  return `${label} on ${n}${of}${now ? `, now ${now.range}` : ''}: ${listNodeIds(group.nodeIds)}`;
}

function memoryNow(group: AlertGroup, useNow: UseNow | undefined): { mark: number; below: boolean; range: string } | null {
  const mark = group.kind === 'memory-high' || group.kind === 'memory-critical' ? MEMORY_RAISE_AT[group.kind] : null;
  if (mark === null || !useNow) return null;
  const uses = group.nodeIds.map(useNow).filter((u): u is number => u !== null).map((u) => Math.min(100, Math.round(u)));
  if (uses.length === 0) return null;
  const lo = Math.min(...uses);
  const hi = Math.max(...uses);
  return { mark, below: uses.length === group.nodeIds.length && hi < mark, range: lo === hi ? `${lo} %` : `${lo}–${hi} %` };
}
