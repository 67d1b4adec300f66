import type { ActionPreview, ParsedOperatorAction } from '../contract/actions.js';
import type { ClusterSnapshot } from '../contract/snapshot.js';

function stopWarnings(snapshot: ClusterSnapshot, nodeId: number): { safe: boolean; warnings: string[] } {
  const node = snapshot.nodes.find((n) => n.nodeId === nodeId);
  if (!node) return { safe: false, warnings: [`node ${nodeId} is not in this cluster`] };
  if (node.type !== 'NDB') return { safe: false, warnings: [`node ${nodeId} is a${node.type === 'API' ? 'n' : ''} ${node.type} node, not a data node: the server will refuse`] };
  if (node.safeToStop) return { safe: true, warnings: [] };
  const group = snapshot.nodeGroups.find((g) => g.nodeIds.includes(nodeId));
  if (!group) return { safe: false, warnings: [`node ${nodeId}'s node group is not known yet`] };
  const othersUp = group.live - (node.status === 'STARTED' || node.status === 'SINGLE USER MODE' ? 1 : 0);
  return {
    safe: false,
    warnings: [
      othersUp === 0
        ? `node ${nodeId} is the last live member of node group ${group.nodeGroup}: the server will refuse (5028)`
        : `node group ${group.nodeGroup} is already degraded (${group.live} of ${group.nodeIds.length} up): stopping node ${nodeId} leaves it with less redundancy`,
    ],
  };
}

/** What the confirmation dialog shows before anything is sent. The server's answer is what counts. */
export function previewAction(action: ParsedOperatorAction, snapshot: ClusterSnapshot, allowed: boolean): ActionPreview {
  const disabled = allowed ? [] : ['operator actions are disabled (start ndbtop with --allow-actions)'];
  const result = (description: string, safe: boolean, warnings: string[]): ActionPreview => ({ description, safe, warnings: [...disabled, ...warnings], allowed });
  switch (action.kind) {
    case 'stop': {
      const w = stopWarnings(snapshot, action.nodeId);
      return result(`Stop data node ${action.nodeId}${action.abort ? ' immediately (abort)' : ''}`, w.safe, [...w.warnings, ...(action.abort ? ['abort: no graceful shutdown, transactions on the node are aborted'] : [])]);
    }
    case 'restart': {
      const w = stopWarnings(snapshot, action.nodeId);
      const extra = [
        ...(action.initial ? [`initial: node ${action.nodeId}'s file system is removed and its data copied again from its node group`] : []),
        ...(action.noStart ? [`no start: node ${action.nodeId} waits in NOT_STARTED until a start order`] : []),
        ...(action.abort ? ['abort: no graceful shutdown'] : []),
      ];
      return result(`Restart data node ${action.nodeId}${action.initial ? ' (initial)' : ''}`, w.safe, [...w.warnings, ...extra]);
    }
    case 'start': {
      const node = snapshot.nodes.find((n) => n.nodeId === action.nodeId);
      const ok = node?.status === 'NOT_STARTED';
      return result(`Start data node ${action.nodeId}`, ok, ok ? [] : [`node ${action.nodeId} is ${node?.status ?? 'unknown'}, not NOT_STARTED: nothing to start`]);
    }
    case 'startBackup':
      return result('Start a backup of the whole cluster', true, snapshot.backup?.status === 'running' ? [`backup ${snapshot.backup.backupId} is still running`] : []);
    case 'abortBackup':
      return result(`Abort backup ${action.backupId}`, true, []);
    case 'enterSingleUser': {
      const node = snapshot.nodes.find((n) => n.nodeId === action.apiNodeId);
      const description = `Enter single user mode for API node ${action.apiNodeId}`;
      // Only an API or SQL node can be the single user: anything else is refused here, not offered as "do it anyway".
      if (node?.type !== 'API') {
        const why = node ? `node ${action.apiNodeId} is a${node.type === 'MGM' ? ' management' : ' data'} node, not an API or SQL node` : `node ${action.apiNodeId} is not in this cluster`;
        return { ...result(description, false, [why]), allowed: false };
      }
      return result(description, false, ['every other API and SQL node loses access to the data until single user mode ends']);
    }
    case 'exitSingleUser':
      return result('Exit single user mode', true, []);
  }
}
