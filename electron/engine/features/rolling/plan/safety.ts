import { nodeGroups, type GroupMember } from '../../../cluster/node-groups.js';
import { isUp } from '../../../cluster/node-status.js';
import type { Observation, RollingPlan } from '../types.js';

/** When the check runs: before the step's restart is sent, or while it runs or pauses (other nodes must stay up). */
export type CheckMoment = 'before' | 'during' | 'pause';

const list = (ids: readonly number[]): string => (ids.length === 1 ? `node ${ids[0]}` : `nodes ${ids.join(', ')}`);

/** The data nodes as observed, each with its node group (the plan's record where `get status` prints a placeholder). */
export function membersOf(plan: RollingPlan, obs: Observation): GroupMember[] {
  const planned = new Map(plan.nodeGroups.map((g) => [g.nodeId, g.nodeGroup]));
  return obs.nodes.map((n) => ({ nodeId: n.nodeId, status: n.status, nodeGroup: n.nodeGroup ?? planned.get(n.nodeId) ?? null }));
}

/**
 * Why the step's nodes may not be restarted now (before), or why the plan must stop (during a step or a pause):
 * every data node outside the step STARTED, every node group keeping a live node, no critical alert, a live
 * connection. Empty when it is safe. Pure; the reasons name the nodes and node groups at stake.
 */
export function stepHazards(plan: RollingPlan, step: readonly number[], obs: Observation, moment: CheckMoment): string[] {
  if (!obs.connected) {
    return moment === 'before' ? [`could not reach the management server${obs.error ? ` (${obs.error})` : ''}: nothing is sent until it answers`] : [];
  }
  const reasons: string[] = [];
  if (moment === 'before') for (const a of obs.criticalAlerts) reasons.push(`a critical alert is active: ${a}`);
  if (moment === 'before' && obs.alertsUnknown) reasons.push(`whether a critical alert is active cannot be told: ${obs.alertsUnknown}`);
  const members = membersOf(plan, obs);
  const byId = new Map(members.map((m) => [m.nodeId, m]));
  if (moment === 'before') {
    for (const { nodeId } of plan.nodeGroups) if (!step.includes(nodeId) && !byId.has(nodeId)) reasons.push(`node ${nodeId} is not in the cluster's status`);
    for (const id of step) {
      const m = byId.get(id);
      if (!m) reasons.push(`node ${id} is not in the cluster's status`);
      else if (m.status !== 'STARTED') reasons.push(`node ${id} is ${m.status}, not STARTED: a rolling restart only restarts a started node`);
      else if (m.nodeGroup === null) reasons.push(`node ${id}'s node group is not known: whether the cluster survives its restart cannot be told`);
    }
  }
  const lostGroups = new Set<number>();
  for (const m of members) {
    if (step.includes(m.nodeId) || m.status === 'STARTED') continue;
    const partners = typeof m.nodeGroup === 'number' ? step.filter((id) => byId.get(id)?.nodeGroup === m.nodeGroup) : [];
    const othersLive = members.some((o) => o.nodeGroup === m.nodeGroup && !step.includes(o.nodeId) && isUp(o.status));
    if (partners.length > 0 && !othersLive && typeof m.nodeGroup === 'number') {
      lostGroups.add(m.nodeGroup);
      reasons.push(
        moment === 'before'
          ? `node ${m.nodeId} is ${m.status}: restarting its partner ${list(partners)} would take node group ${m.nodeGroup} down`
          : `node ${m.nodeId} is ${m.status} while its partner ${list(partners)} restarts: node group ${m.nodeGroup} has no live node`,
      );
    } else {
      const when = moment === 'before' ? '' : moment === 'pause' ? ' during the pause' : ' during the step';
      reasons.push(`node ${m.nodeId} is ${m.status}${when}: every data node outside the step must be STARTED`);
    }
  }
  if (moment === 'before') {
    // The node groups as they will be while the step's nodes are down (NoOfReplicas counts missing members).
    const after = members.map((m) => (step.includes(m.nodeId) ? { ...m, status: 'NOT_STARTED' as const } : m));
    for (const g of nodeGroups(after, plan.replicas)) {
      const inStep = step.filter((id) => g.nodeIds.includes(id));
      if (g.health === 'OFFLINE' && inStep.length > 0 && !lostGroups.has(g.nodeGroup)) {
        reasons.push(`restarting ${list(inStep)} would leave node group ${g.nodeGroup} with no live node`);
      }
    }
  }
  return reasons;
}

/**
 * The step's node groups that are not OK again (every member up), by the same rule as the dashboard's health, in
 * words; empty once they all are. With NoOfReplicas, a member missing from the status counts as down: the check
 * during a step only sees the nodes the status lists.
 */
export function unhealthyGroups(plan: RollingPlan, step: readonly number[], obs: Observation): string[] {
  return nodeGroups(membersOf(plan, obs), plan.replicas)
    .filter((g) => g.health !== 'OK' && step.some((id) => g.nodeIds.includes(id)))
    .map((g) => `node group ${g.nodeGroup} has ${g.live} of ${Math.max(g.nodeIds.length, plan.replicas ?? 0)} nodes up (${list(g.nodeIds)} in the status)`);
}
