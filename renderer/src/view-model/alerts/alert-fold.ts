import { ALERT_KIND_LABEL, levelMoved, listNodeIds, type Alert, type LevelFigures } from '../../contract.js';

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

/**
 * "memory ≥ 90 % used on 141 of 144 data nodes: 3, 4, 7, …". A level group (redo, undo, memory) says its nodes'
 * figures from the engine's level figures, the ones their alerts' words say: "redo log 91–95 % full on 4 of 4 data
 * nodes", and once they moved, their peak and the figures now: "redo log peaked at 95 % on 4 of 4 data nodes, now
 * 1 %", never a figure the panels beside it contradict.
 */
export function groupTitle(group: AlertGroup, dataNodes: number): string {
  const n = group.nodeIds.length;
  if (n === 0) return `${ALERT_KIND_LABEL[group.kind]}: ${group.alerts.length} alert${group.alerts.length === 1 ? '' : 's'}`;
  const of = dataNodes >= n ? ` of ${dataNodes} data nodes` : ` node${n === 1 ? '' : 's'}`;
  const levels = group.alerts.flatMap((a) => (a.level ? [a.level] : []));
  if (levels.length < group.alerts.length) return `${ALERT_KIND_LABEL[group.kind]} on ${n}${of}: ${listNodeIds(group.nodeIds)}`;
  const subject = [...new Set(levels.map((l) => l.subject))].sort().join(' or ');
  const now = range(levels.map((l) => l.now));
  if (!levels.some(levelMoved)) return `${subject} ${now} ${(levels[0] as LevelFigures).unit} on ${n}${of}: ${listNodeIds(group.nodeIds)}`;
  const peak = Math.round(Math.max(...levels.map((l) => l.peak)));
  return `${subject} peaked at ${peak} % on ${n}${of}, now ${now}: ${listNodeIds(group.nodeIds)}`;
}

function range(values: readonly number[]): string {
  const lo = Math.round(Math.min(...values));
  const hi = Math.round(Math.max(...values));
  return lo === hi ? `${lo} %` : `${lo}–${hi} %`;
}
