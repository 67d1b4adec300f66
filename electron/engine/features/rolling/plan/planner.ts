import type { GroupMember } from '../../../cluster/node-groups.js';
import type { CheckSettings, PlanLimits, RestartOrder, RollingPlan } from '../types.js';
import { DEFAULT_CHECKS } from './ndb-checks.js';

export interface PlanRequest {
  id: string;
  cluster: string;
  createdAt: number;
  /** Every data node, with its node group from `get status`, else the configuration. */
  dataNodes: readonly GroupMember[];
  mgmNodeIds: readonly number[];
  replicas: number | null;
  /** Node ids the operator chose; all data nodes when absent. */
  chosen?: readonly number[];
  order: RestartOrder;
  pauseMs: number;
  limits: PlanLimits;
  /** The NDB checks' settings; the defaults when absent. */
  checks?: Partial<CheckSettings>;
  /** Changed parameters that need an initial restart, in words (`initialRestartNotes`). */
  initialRestart?: readonly string[];
}

export type PlanOutcome = { ok: true; plan: RollingPlan } | { ok: false; reasons: string[] };

/** Generous for real clusters (a node restart copies its data); the CLI lets the operator set them. */
export const DEFAULT_LIMITS: PlanLimits = { leaveMs: 60_000, notStartedMs: 60_000, stepMs: 3_600_000 };

/** Management servers cannot be restarted over their own protocol by a tool that stays connected: a manual step. */
function manualSteps(mgmNodeIds: readonly number[]): string[] {
  return [...mgmNodeIds]
    .sort((a, b) => a - b)
    .map((id) => `management server ${id}: restart it by hand (stop ndb_mgmd and start it again), one at a time, before or after the data nodes`);
}

/**
 * Default order: the k-th node (by id) of every node group in step k, so each step restarts one node per node
 * group in parallel and never two of one group. `node-id`: one node per step. A node in no node group holds no
 * data and is its own group. Pure: refuses with reasons instead of planning something unsafe.
 */
export function planRollingRestart(req: PlanRequest): PlanOutcome {
  const byId = new Map(req.dataNodes.map((n) => [n.nodeId, n]));
  const reasons: string[] = [];
  const chosen = [...new Set(req.chosen ?? req.dataNodes.map((n) => n.nodeId))].sort((a, b) => a - b);
  for (const id of chosen) {
    if (req.mgmNodeIds.includes(id)) reasons.push(`node ${id} is a management server: it cannot be restarted over its own protocol; restart it by hand`);
    else if (!byId.has(id)) reasons.push(`node ${id} is not a data node of this cluster`);
    else if (byId.get(id)?.nodeGroup === null) reasons.push(`node ${id}'s node group is not known: whether the cluster survives its restart cannot be told`);
  }
  const groups = new Map<string, number[]>();
  for (const n of req.dataNodes) {
    if (n.nodeGroup === null) continue;
    const key = n.nodeGroup === 'none' ? `none:${n.nodeId}` : String(n.nodeGroup);
    groups.set(key, [...(groups.get(key) ?? []), n.nodeId]);
  }
  for (const [key, members] of groups) {
    if (key.startsWith('none:') || !members.some((id) => chosen.includes(id))) continue;
    if (members.length < 2 || (req.replicas ?? 2) < 2) {
      reasons.push(`node group ${key} has only node ${members.join(', ')}${req.replicas === 1 ? ' (NoOfReplicas 1)' : ''}: restarting it takes the node group down, so it cannot be part of a rolling restart`);
    }
  }
  if (chosen.length === 0) reasons.push('no data node to restart');
  if (reasons.length > 0) return { ok: false, reasons };

  const steps: number[][] = [];
  if (req.order === 'node-id') {
    for (const id of chosen) steps.push([id]);
  } else {
    const lanes = [...groups.values()].map((members) => members.filter((id) => chosen.includes(id)).sort((a, b) => a - b));
    const depth = Math.max(...lanes.map((l) => l.length));
    for (let k = 0; k < depth; k++) steps.push(lanes.flatMap((l) => (k < l.length ? [l[k] as number] : [])).sort((a, b) => a - b));
  }
  const nodeGroups = chosen.map((id) => ({ nodeId: id, nodeGroup: byId.get(id)?.nodeGroup as number | 'none' }));
  for (const n of req.dataNodes) if (!chosen.includes(n.nodeId) && n.nodeGroup !== null) nodeGroups.push({ nodeId: n.nodeId, nodeGroup: n.nodeGroup });
  return {
    ok: true,
    plan: {
      id: req.id,
      cluster: req.cluster,
      createdAt: req.createdAt,
      order: req.order,
      pauseMs: req.pauseMs,
      steps,
      nodeGroups: nodeGroups.sort((a, b) => a.nodeId - b.nodeId),
      replicas: req.replicas,
      manual: [...(req.initialRestart ?? []), ...manualSteps(req.mgmNodeIds)],
      limits: req.limits,
      checks: { ...DEFAULT_CHECKS, ...req.checks },
    },
  };
}
