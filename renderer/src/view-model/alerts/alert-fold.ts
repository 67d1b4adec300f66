import { ALERT_KIND_LABEL, listNodeIds, type Alert } from '../../contract.js';

/** Active alerts of one kind and severity: one row in the strip however many nodes raised them. */
export interface AlertGroup {
  key: string;
  kind: Alert['kind'];
  severity: Alert['severity'];
  /** In the order given (the strip's: newest first). */
  alerts: Alert[];
  nodeIds: number[];
}

/** Groups in the order their first alert comes in `active`, so critical-first-then-newest still holds. */
export function groupAlerts(active: readonly Alert[]): AlertGroup[] {
  const groups = new Map<string, AlertGroup>();
  for (const a of active) {
    const key = `${a.kind}:${a.severity}`;
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

/** "memory ≥ 90 % used on 141 of 144 data nodes: 3, 4, 7, …" */
export function groupTitle(group: AlertGroup, dataNodes: number): string {
  const label = ALERT_KIND_LABEL[group.kind];
  const n = group.nodeIds.length;
  if (n === 0) return `${label}: ${group.alerts.length} alert${group.alerts.length === 1 ? '' : 's'}`;
  const of = dataNodes >= n ? ` of ${dataNodes} data nodes` : ` node${n === 1 ? '' : 's'}`;
  return `${label} on ${n}${of}: ${listNodeIds(group.nodeIds)}`;
}
