import type { NodeGroupView } from '../../../contract/node.js';
import type { ConfigState } from '../../config/config-state.js';
import { nodeGroups } from '../node-groups.js';
import type { TrackerInput } from '../tracker-input.js';
import type { AlertRoom } from './alert-room.js';
import type { NodeBook } from './node-book.js';
import type { Room, StatusChange } from './room.js';

/** `node-group-degraded` / `node-group-offline`: judged once an input is applied, from the groups' health. */
export class GroupAlerts implements Room {
  private readonly health = new Map<number, NodeGroupView['health']>();
  /** Set by the inputs that can change a group's health; statistics reports, hundreds a second, never do. */
  private mayHaveChanged = false;

  constructor(
    private readonly alerts: AlertRoom,
    private readonly nodes: NodeBook,
    private readonly config: ConfigState,
  ) {}

  input(input: TrackerInput): void {
    if (input.kind === 'status' || input.kind === 'config') this.mayHaveChanged = true;
  }

  status(change: StatusChange): void {
    if (change.previous !== change.status) this.mayHaveChanged = true;
  }

  settle(at: number): void {
    if (!this.mayHaveChanged) return;
    this.mayHaveChanged = false;
    for (const g of nodeGroups(this.nodes.members(), this.config.replicas())) {
      if (this.health.get(g.nodeGroup) === g.health) continue;
      this.health.set(g.nodeGroup, g.health);
      const degraded = `ng-degraded:${g.nodeGroup}`;
      const offline = `ng-offline:${g.nodeGroup}`;
      if (g.health !== 'DEGRADED') this.alerts.resolve(degraded, at);
      if (g.health !== 'OFFLINE') this.alerts.resolve(offline, at);
      if (g.health === 'DEGRADED') this.alerts.raise(degraded, 'node-group-degraded', 'warning', at, null, `Node group ${g.nodeGroup} degraded: ${g.live} of ${g.nodeIds.length} nodes up`);
      if (g.health === 'OFFLINE') this.alerts.raise(offline, 'node-group-offline', 'critical', at, null, `Node group ${g.nodeGroup} offline: no node up (nodes ${g.nodeIds.join(', ')})`);
    }
  }
}
