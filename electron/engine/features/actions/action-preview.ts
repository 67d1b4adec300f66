import type { ActionPreview, ParsedOperatorAction } from '../../../contract/schemas/actions.js';
import type { NodeView } from '../../../contract/schemas/node.js';
import type { ClusterSnapshot } from '../../../contract/schemas/snapshot.js';
import { isUp } from '../../cluster/node-status.js';

/** What the cluster's configuration says, when known (the config reader supplies it; absent, node groups as seen). */
export interface PreviewTopology {
  noOfReplicas?: number | null;
  /** Where the data nodes write a backup, in words (`facts/backups/backup-dir.ts`); null while the configuration is unread. */
  backupDirectory?: string | null;
}

interface Verdict {
  safe: boolean;
  possible: boolean;
  /** Why it is unsafe or impossible. */
  warnings: string[];
  /** What will happen, in words, safe or not. */
  consequences: string[];
}

const ok = (consequences: string[] = []): Verdict => ({ safe: true, possible: true, warnings: [], consequences });
const impossible = (why: string): Verdict => ({ safe: false, possible: false, warnings: [why], consequences: [] });

/** Stopping (or restarting, which stops first) data node `nodeId` as the cluster is now. */
function stopVerdict(snapshot: ClusterSnapshot, nodeId: number, verb: 'stop' | 'restart', topology: PreviewTopology): Verdict {
  const node = snapshot.nodes.find((n) => n.nodeId === nodeId);
  if (!node) return impossible(`node ${nodeId} is not in this cluster (any more)`);
  if (node.type !== 'NDB') return impossible(`node ${nodeId} is a${node.type === 'API' ? 'n' : ''} ${node.type} node, not a data node: the server will refuse`);
  if (node.status === 'NO_CONTACT' || node.status === 'UNKNOWN') return impossible(`node ${nodeId} is not connected (${node.status}): there is nothing to ${verb}`);
  const consequences = [...masterAndBackup(snapshot, node)];
  const group = snapshot.nodeGroups.find((g) => g.nodeIds.includes(nodeId));
  if (node.nodeGroup === 'none') return ok([`node ${nodeId} is in no node group and holds no data`, ...consequences]);
  if (!group) return { safe: false, possible: true, warnings: [`node ${nodeId}'s node group is not known yet: whether the cluster survives cannot be told`], consequences };
  const size = topology.noOfReplicas ?? group.nodeIds.length;
  const othersUp = group.live - (isUp(node.status) ? 1 : 0);
  const g = group.nodeGroup;
  if (othersUp === 0) {
    return {
      safe: false,
      possible: true,
      warnings: [
        `node group ${g} will have no live node: the cluster will shut down`,
        `node ${nodeId} is the last live node of node group ${g}: the server will refuse (5028) unless the whole cluster is stopped`,
      ],
      consequences,
    };
  }
  const keeps = `node group ${g} keeps ${othersUp} of ${size} node${size === 1 ? '' : 's'} live`;
  if (othersUp < size - 1) {
    return { safe: false, possible: true, warnings: [`node group ${g} is already degraded (${group.live} of ${size} up): ${keeps}, with less redundancy`], consequences };
  }
  return ok([keeps, ...consequences]);
}

function masterAndBackup(snapshot: ClusterSnapshot, node: NodeView): string[] {
  const out: string[] = [];
  if (snapshot.masterNodeId === node.nodeId) out.push(`node ${node.nodeId} is the master: a new master will be elected`);
  if (snapshot.backup?.status === 'running') out.push(`backup ${snapshot.backup.backupId} is running: stopping a data node makes it fail`);
  return out;
}

/**
 * What the confirmation dialog shows before anything is sent, from the cluster as it is now; the dialog asks again
 * on every change while it is open. The request sent does not depend on it: the server's answer is what counts.
 */
export function previewAction(action: ParsedOperatorAction, snapshot: ClusterSnapshot, allowed: boolean, topology: PreviewTopology = {}): ActionPreview {
  const disabled = allowed ? [] : ['operator actions are disabled (start ndbtop with --allow-actions)'];
  const result = (description: string, v: Verdict, extra: string[] = []): ActionPreview => ({
    description,
    safe: v.safe,
    possible: v.possible && allowed,
    warnings: [...disabled, ...v.warnings, ...extra],
    consequences: v.consequences,
    allowed,
  });
  switch (action.kind) {
    case 'stop':
      return result(`Stop data node ${action.nodeId}${action.abort ? ' immediately (abort)' : ''}`, stopVerdict(snapshot, action.nodeId, 'stop', topology), action.abort ? ['abort: no graceful shutdown, transactions on the node are aborted'] : []);
    case 'restart':
      return result(`Restart data node ${action.nodeId}${action.initial ? ' (initial)' : ''}`, stopVerdict(snapshot, action.nodeId, 'restart', topology), [
        ...(action.initial ? [`initial: node ${action.nodeId}'s file system is removed and its data copied again from its node group`] : []),
        ...(action.noStart ? [`no start: node ${action.nodeId} waits in NOT_STARTED until a start order`] : []),
        ...(action.abort ? ['abort: no graceful shutdown'] : []),
      ]);
    case 'start': {
      const node = snapshot.nodes.find((n) => n.nodeId === action.nodeId);
      const verdict = node?.status === 'NOT_STARTED' ? ok([`node ${action.nodeId} starts and joins node group ${String(node.nodeGroup ?? '?')}`]) : impossible(`node ${action.nodeId} is ${node?.status ?? 'not in this cluster'}, not NOT_STARTED: nothing to start`);
      return result(`Start data node ${action.nodeId}`, verdict);
    }
    case 'startBackup': {
      const where = topology.backupDirectory ? `each data node writes its files to ${topology.backupDirectory} (on its own host)` : 'the configuration is not read yet: where the files go (BackupDataDir) is not known here';
      const verdict = snapshot.backup?.status === 'running' ? { ...ok([where]), warnings: [`backup ${snapshot.backup.backupId} is still running`] } : ok([where]);
      return result('Start a backup of the whole cluster', verdict);
    }
    case 'abortBackup':
      return result(`Abort backup ${action.backupId}`, ok([`backup ${action.backupId} stops and its files are incomplete`]));
    case 'enterSingleUser': {
      const node = snapshot.nodes.find((n) => n.nodeId === action.apiNodeId);
      // Only an API or SQL node can be the single user: anything else is refused here, not offered as "do it anyway".
      const verdict: Verdict =
        node?.type !== 'API'
          ? impossible(node ? `node ${action.apiNodeId} is a${node.type === 'MGM' ? ' management' : ' data'} node, not an API or SQL node` : `node ${action.apiNodeId} is not in this cluster`)
          : { safe: false, possible: true, warnings: ['every other API and SQL node loses access to the data until single user mode ends'], consequences: [] };
      return result(`Enter single user mode for API node ${action.apiNodeId}`, verdict);
    }
    case 'exitSingleUser':
      return result('Exit single user mode', ok(['every API and SQL node gets access to the data again']));
  }
}
