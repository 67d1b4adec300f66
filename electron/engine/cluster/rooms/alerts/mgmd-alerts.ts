import type { NodeStatus } from '../../../../contract/schemas/node.js';
import type { TrackerInput } from '../../tracker-input.js';
import type { AlertRoom } from './alert-room.js';
import type { Room, StatusChange } from '../room.js';

/** A management server that went down this many times within the window is flapping. */
export const FLAP_DOWNS = 3;
export const FLAP_WINDOW_MS = 120_000;

/**
 * The other management servers, as `get status` and the Disconnected/Connected events show them: one that goes
 * down is a warning (`mgmd-down`; the one ndbtop uses is the connection's `mgmd-lost`), and one that went down
 * FLAP_DOWNS times within FLAP_WINDOW_MS is named as flapping (`mgmd-flapping`, one alert instead of a banner per
 * outage), over once it stayed up for the window.
 */
export class MgmdAlerts implements Room {
  private readonly downs = new Map<number, number[]>();
  private readonly up = new Map<number, boolean>();
  private readonly flapping = new Set<number>();

  constructor(
    private readonly alerts: AlertRoom,
    /** The management server ndbtop's command session is on, when known. */
    private readonly active: () => number | null,
  ) {}

  status({ nodeId: id, type, previous, status, at }: StatusChange): void {
    if (type !== 'MGM') return;
    const isUp = isConnected(status);
    this.up.set(id, isUp);
    if (previous === null) return;
    if (isUp) {
      this.alerts.resolve(`mgmd-down:${id}`, at);
      return;
    }
    if (!isConnected(previous)) return;
    const downs = [...(this.downs.get(id) ?? []), at].filter((t) => t > at - FLAP_WINDOW_MS);
    this.downs.set(id, downs);
    if (this.flapping.has(id)) return;
    if (downs.length >= FLAP_DOWNS) {
      this.flapping.add(id);
      this.alerts.resolve(`mgmd-down:${id}`, at);
      this.alerts.raise(`mgmd-flapping:${id}`, 'mgmd-flapping', 'warning', at, id, `Management server ${id} is flapping: down ${downs.length} times in ${Math.round((at - (downs[0] ?? at)) / 1000)} s`);
    } else if (id !== this.active()) {
      this.alerts.raise(`mgmd-down:${id}`, 'mgmd-down', 'warning', at, id, `Management server ${id} is down (not the one ndbtop uses)`);
    }
  }

  input(input: TrackerInput): void {
    if (input.kind !== 'tick') return;
    for (const id of this.flapping) {
      const last = this.downs.get(id)?.at(-1) ?? 0;
      if (this.up.get(id) && input.t - last >= FLAP_WINDOW_MS) {
        this.flapping.delete(id);
        this.alerts.resolve(`mgmd-flapping:${id}`, input.t);
      }
    }
  }

  /** Every management server `get status` lists is up (none known counts as up). */
  allUp(): boolean {
    return [...this.up.values()].every(Boolean);
  }

  forget(nodeId: number): void {
    this.up.delete(nodeId);
    this.downs.delete(nodeId);
  }
}

function isConnected(s: NodeStatus): boolean {
  return s === 'CONNECTED';
}
