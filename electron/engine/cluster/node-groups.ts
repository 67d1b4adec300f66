import type { NodeGroupView, NodeStatus } from '../../contract/schemas/node.js';
import { isUp } from './node-status.js';

export interface GroupMember {
  nodeId: number;
  status: NodeStatus;
  /** Last node group seen for the node: `get status` prints a placeholder 0 while it is NO_CONTACT (spec §5.3). */
  nodeGroup: number | 'none' | null;
}

/**
 * OK: every member up; DEGRADED: some; OFFLINE: none. Only real node groups (≥ 0) count. With NoOfReplicas from
 * the configuration, a group with fewer members than that is missing some, so it is not OK.
 */
export function nodeGroups(members: readonly GroupMember[], replicas: number | null = null): NodeGroupView[] {
  const groups = new Map<number, GroupMember[]>();
  for (const m of members) {
    if (typeof m.nodeGroup !== 'number' || m.nodeGroup < 0) continue;
    const list = groups.get(m.nodeGroup);
    if (list) list.push(m);
    else groups.set(m.nodeGroup, [m]);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => a - b)
    .map(([nodeGroup, list]) => {
      const live = list.filter((m) => isUp(m.status)).length;
      const expected = Math.max(list.length, replicas ?? 0);
      const health = live === expected ? 'OK' : live === 0 ? 'OFFLINE' : 'DEGRADED';
      return { nodeGroup, nodeIds: list.map((m) => m.nodeId).sort((a, b) => a - b), live, health };
    });
}

/**
 * "Safe to stop X?" as a prediction (spec §8.4): every other member of X's node group is up. A node in no node
 * group holds no data; a node whose group was never seen is not called safe.
 */
export function safeToStop(member: GroupMember, members: readonly GroupMember[], replicas: number | null = null): boolean {
  if (member.nodeGroup === 'none') return true;
  if (member.nodeGroup === null) return false;
  const others = members.filter((m) => m.nodeId !== member.nodeId && m.nodeGroup === member.nodeGroup);
  // With NoOfReplicas known, a group whose other replicas are not all listed is not called safe either.
  return others.length > 0 && others.length + 1 >= (replicas ?? 0) && others.every((m) => isUp(m.status));
}
