import type { ClusterEvent } from '../../../../native-mgm/index.js';
import { isUp } from '../node-status.js';
import type { TrackerInput } from '../tracker-input.js';
import type { Room, StatusChange } from './room.js';

/** NDBStopCompleted / NDBStopForced `action` bit 1: the node restarts (spec §6.7). */
const ACTION_RESTART = 1;

/** Who asked: this engine's own stop/restart, a declared plan (a rolling restart), or some client, as the server's events say. */
export type Asker = 'engine' | 'declared' | 'server';

interface Planned {
  by: Asker;
  /** null: a graceful stop has begun and the server has not yet said whether the node comes back. */
  restart: boolean | null;
}

/**
 * Which data nodes are down (or going down) because someone asked: a stop or restart through this engine
 * (`requested` inputs), a declared restart plan (`planned` inputs: the rolling-restart conductor declares each restart
 * it sends), or a graceful stop by any client, which the server announces (NDBStopStarted, SHUTTING_DOWN) and
 * qualifies once done (NDBStopCompleted's restart bit). A forced stop (NDBStopForced) is a failure, whoever asked.
 * A node's entry ends when it is up again. The alert rooms ask it before they alarm.
 */
export class PlannedWork implements Room {
  private readonly nodes = new Map<number, Planned>();
  /** Moves whenever what is planned changes, so a room that judged from it knows to judge again. */
  version = 0;

  input(input: TrackerInput): void {
    if (input.kind === 'requested') this.declare(input.nodeId, input.requested, 'engine', null);
    else if (input.kind === 'planned') for (const id of input.nodeIds) this.declare(id, input.planned, 'declared', true);
  }

  event(e: ClusterEvent): boolean {
    const id = e.sourceNodeId;
    switch (e.name) {
      case 'NDBStopStarted':
        if (!this.nodes.has(id)) this.set(id, { by: 'server', restart: null });
        break;
      case 'NDBStopCompleted': {
        const current = this.nodes.get(id);
        const restart = ((e.fields.action ?? 0) & ACTION_RESTART) !== 0;
        this.set(id, { by: current?.by ?? 'server', restart: current?.restart === true || restart });
        break;
      }
      case 'NDBStopForced':
        this.clear(id);
        break;
    }
    return false;
  }

  status({ nodeId, type, previous, status }: StatusChange): void {
    if (type !== 'NDB' || previous === null) return;
    if (isUp(status)) this.clear(nodeId);
    else if (status === 'SHUTTING_DOWN' && !this.nodes.has(nodeId)) this.set(nodeId, { by: 'server', restart: null });
  }

  forget(nodeId: number): void {
    this.clear(nodeId);
  }

  /** Asked to stop or restart: its leaving STARTED is no failure. */
  isPlanned(nodeId: number): boolean {
    return this.nodes.has(nodeId);
  }

  /** Who asked the node to stop or restart, or null: nobody (a failure). */
  askedBy(nodeId: number): Asker | null {
    return this.nodes.get(nodeId)?.by ?? null;
  }

  /** Some data node is down, or going down, because someone asked. */
  inFlight(): boolean {
    return this.nodes.size > 0;
  }

  /** Asked to come back (a restart), or a graceful stop the server has not yet said is a plain stop: progress, not an alarm. */
  comesBack(nodeId: number): boolean {
    const p = this.nodes.get(nodeId);
    return p !== undefined && p.restart !== false;
  }

  private declare(id: number, planned: boolean, by: Asker, restart: boolean | null): void {
    if (planned) this.set(id, { by, restart: this.nodes.get(id)?.restart === true || restart });
    else if (this.nodes.get(id)?.by === by) this.clear(id);
  }

  private set(id: number, planned: Planned): void {
    const current = this.nodes.get(id);
    if (current?.by === planned.by && current.restart === planned.restart) return;
    this.nodes.set(id, planned);
    this.version++;
  }

  private clear(id: number): void {
    if (this.nodes.delete(id)) this.version++;
  }
}
