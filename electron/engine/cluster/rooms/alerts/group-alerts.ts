import { isUp } from '../../node-status.js';
import type { TrackerInput } from '../../tracker-input.js';
import type { AlertRoom } from './alert-room.js';
import type { NodeBook } from '../node-book.js';
import type { PlannedWork } from '../planned-work.js';
import type { Room, StatusChange } from '../room.js';

/**
 * `node-group-degraded` / `node-group-offline`: judged once an input is applied, from the groups' health. A group
 * degraded only by restarts someone asked for (`PlannedWork`) is progress, shown by the nodes' restart, not an
 * alarm; a planned stop that turns out to be a plain stop, or any unplanned loss, is. Offline is always an alarm.
 */
export class GroupAlerts implements Room {
  /** Per group, what was judged last: its health, and whether planned work explained it. */
  private readonly judged = new Map<number, string>();
  private plannedVersion = 0;
  /** Set by the inputs that can change a group's health; statistics reports, hundreds a second, never do. */
  private mayHaveChanged = false;

  constructor(
    private readonly alerts: AlertRoom,
    private readonly nodes: NodeBook,
    private readonly planned: PlannedWork,
  ) {}

  input(input: TrackerInput): void {
    if (input.kind === 'status' || input.kind === 'config') this.mayHaveChanged = true;
  }

  status(change: StatusChange): void {
    if (change.previous !== change.status) this.mayHaveChanged = true;
  }

  settle(at: number): void {
    if (!this.mayHaveChanged && this.plannedVersion === this.planned.version) return;
    this.mayHaveChanged = false;
    this.plannedVersion = this.planned.version;
    const members = this.nodes.members();
    const up = new Set(members.filter((m) => isUp(m.status)).map((m) => m.nodeId));
    for (const g of this.nodes.groups()) {
      const planned = g.health === 'DEGRADED' && g.nodeIds.every((id) => up.has(id) || this.planned.comesBack(id));
      const judgement = `${g.health}${planned ? ':planned' : ''}`;
      if (this.judged.get(g.nodeGroup) === judgement) continue;
      this.judged.set(g.nodeGroup, judgement);
      const degraded = `ng-degraded:${g.nodeGroup}`;
      const offline = `ng-offline:${g.nodeGroup}`;
      if (g.health !== 'DEGRADED' || planned) this.alerts.resolve(degraded, at);
      if (g.health !== 'OFFLINE') this.alerts.resolve(offline, at);
      if (g.health === 'DEGRADED' && !planned) this.alerts.raise(degraded, 'node-group-degraded', 'warning', at, null, `Node group ${g.nodeGroup} degraded: ${g.live} of ${g.nodeIds.length} nodes up`);
      if (g.health === 'OFFLINE') this.alerts.raise(offline, 'node-group-offline', 'critical', at, null, `Node group ${g.nodeGroup} offline: no node up (nodes ${g.nodeIds.join(', ')})`);
    }
  }
}
