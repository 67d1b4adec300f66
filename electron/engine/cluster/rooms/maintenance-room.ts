import type { AlertKind } from '../../../contract/schemas/events.js';
import type { MaintenanceWindow } from '../../../contract/schemas/maintenance.js';
import type { MaintenanceInput, TrackerInput } from '../tracker-input.js';
import type { Room } from './room.js';

export type { MaintenanceInput } from '../tracker-input.js';

export class MaintenanceError extends Error {
  constructor(
    readonly code: 'NOT_FOUND' | 'CONFLICT',
    message: string,
  ) {
    super(message);
  }
}

/** How many windows a cluster keeps (the oldest closed ones go first). */
const CAPACITY = 200;

/**
 * Maintenance windows: opened and closed by `maintenance` inputs (so recorded and replayed), closed by a tick once
 * their duration ran out. While one is open, the alert room asks `silencing` before it raises; when one closes, the
 * conditions it kept quiet that are still on are raised after all (`onClosed`).
 */
export class MaintenanceRoom implements Room {
  private readonly windows: MaintenanceWindow[] = [];
  private readonly closedListeners: Array<(at: number) => void> = [];

  input(input: TrackerInput): void {
    if (input.kind === 'maintenance') this.apply(input);
    else if (input.kind === 'tick') for (const w of this.open()) if (w.until !== null && input.t >= w.until) this.close(w, w.until);
  }

  onClosed(listener: (at: number) => void): void {
    this.closedListeners.push(listener);
  }

  /** Why `input` cannot be applied, or null; asked before it is recorded. */
  check(input: MaintenanceInput): MaintenanceError | null {
    const w = this.windows.find((x) => x.id === input.windowId);
    if (input.op === 'start') return w ? new MaintenanceError('CONFLICT', `a maintenance window with id ${input.windowId} exists`) : null;
    if (!w) return new MaintenanceError('NOT_FOUND', `no maintenance window with id ${JSON.stringify(input.windowId)}`);
    return w.end !== null ? new MaintenanceError('CONFLICT', `maintenance window ${w.id} is already over`) : null;
  }

  /** The open window that silences `kind`, if any. */
  silencing(kind: AlertKind): string | null {
    return this.open().find((w) => w.silence.includes(kind))?.id ?? null;
  }

  list(): MaintenanceWindow[] {
    return this.windows.map((w) => ({ ...w, silence: [...w.silence] }));
  }

  get(id: string): MaintenanceWindow | undefined {
    return this.list().find((w) => w.id === id);
  }

  private open(): MaintenanceWindow[] {
    return this.windows.filter((w) => w.end === null);
  }

  private apply(input: MaintenanceInput): void {
    if (this.check(input)) return;
    if (input.op === 'start') {
      this.windows.push({ id: input.windowId, reason: input.reason, silence: [...input.silence], start: input.t, until: input.until, end: null });
      while (this.windows.length > CAPACITY) {
        const i = this.windows.findIndex((w) => w.end !== null);
        if (i < 0) break;
        this.windows.splice(i, 1);
      }
      return;
    }
    const w = this.windows.find((x) => x.id === input.windowId);
    if (w) this.close(w, input.t);
  }

  private close(w: MaintenanceWindow, at: number): void {
    w.end = Math.max(w.start, at);
    for (const l of this.closedListeners) l(at);
  }
}
