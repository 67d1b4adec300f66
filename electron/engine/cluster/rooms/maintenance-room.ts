import type { Alert, AlertKind } from '../../../contract/schemas/events.js';
import { MAX_MAINTENANCE_MS, MAX_MAINTENANCE_TEXT, MAX_OPEN_MAINTENANCE_WINDOWS, type MaintenanceEvent, type MaintenanceWindow } from '../../../contract/schemas/maintenance.js';
import type { MaintenanceInput, TrackerInput } from '../tracker-input.js';
import type { Room } from './room.js';

export type { MaintenanceInput } from '../tracker-input.js';

export class MaintenanceError extends Error {
  constructor(
    readonly code: 'NOT_FOUND' | 'CONFLICT' | 'BAD_REQUEST',
    message: string,
  ) {
    super(message);
  }
}

/** How many windows a cluster keeps (the oldest closed ones go first). */
const CAPACITY = 200;
const UNNAMED = 'unnamed';

/**
 * Maintenance windows: opened, extended and closed by `maintenance` inputs (so recorded and replayed), closed by a
 * tick once their time ran out; at most MAX_OPEN_MAINTENANCE_WINDOWS open, none longer than MAX_MAINTENANCE_MS.
 * While one is open, the alert room asks `silencing` before it raises; every change of a window is told to
 * `onEvent` (the alert history, and the alert room raising what a closed window kept quiet).
 */
export class MaintenanceRoom implements Room {
  private readonly windows: MaintenanceWindow[] = [];
  private readonly listeners: Array<(event: MaintenanceEvent) => void> = [];
  private readonly tally: Record<MaintenanceEvent['what'], number> = { opened: 0, extended: 0, closed: 0, expired: 0 };

  input(input: TrackerInput): void {
    if (input.kind === 'maintenance') this.apply(input);
    else if (input.kind === 'tick') for (const w of this.open()) if (w.until !== null && input.t >= w.until) this.close(w, w.until, 'expired', null);
  }

  onEvent(listener: (event: MaintenanceEvent) => void): void {
    this.listeners.push(listener);
  }

  /** Why `input` cannot be applied, or null; asked before it is recorded (and again when a recording is replayed). */
  check(input: MaintenanceInput): MaintenanceError | null {
    const w = this.windows.find((x) => x.id === input.windowId);
    if (input.op === 'start') {
      if (w) return new MaintenanceError('CONFLICT', `a maintenance window with id ${input.windowId} exists`);
      if (this.open().length >= MAX_OPEN_MAINTENANCE_WINDOWS) return new MaintenanceError('CONFLICT', `${MAX_OPEN_MAINTENANCE_WINDOWS} maintenance windows are open, the most at once: end one before opening another`);
      return input.until !== null && input.until - input.t > MAX_MAINTENANCE_MS ? tooLong('a maintenance window') : null;
    }
    if (!w) return new MaintenanceError('NOT_FOUND', `no maintenance window with id ${JSON.stringify(input.windowId)}`);
    if (w.end !== null) return new MaintenanceError('CONFLICT', `maintenance window ${w.id} is already over`);
    if (input.op === 'extend' && input.until - w.start > MAX_MAINTENANCE_MS) return tooLong(`maintenance window ${w.id}, extended,`);
    return null;
  }

  /** The open window that silences an alert of `kind` and `severity`, if any: a critical one only when it said so. */
  silencing(kind: AlertKind, severity: Alert['severity']): string | null {
    return this.open().find((w) => w.silence.includes(kind) && (severity !== 'critical' || w.silenceCritical))?.id ?? null;
  }

  list(): MaintenanceWindow[] {
    return this.windows.map((w) => ({ ...w, silence: [...w.silence] }));
  }

  get(id: string): MaintenanceWindow | undefined {
    return this.list().find((w) => w.id === id);
  }

  /** Windows opened, extended, closed and expired so far, for exporters. */
  counts(): Record<MaintenanceEvent['what'], number> {
    return { ...this.tally };
  }

  private open(): MaintenanceWindow[] {
    return this.windows.filter((w) => w.end === null);
  }

  private apply(input: MaintenanceInput): void {
    if (this.check(input)) return;
    const by = input.by ?? UNNAMED;
    if (input.op === 'start') {
      const w: MaintenanceWindow = { id: input.windowId, reason: input.reason, silence: [...input.silence], silenceCritical: input.silenceCritical ?? true, openedBy: by, start: input.t, until: input.until, end: null };
      this.windows.push(w);
      while (this.windows.length > CAPACITY) {
        const i = this.windows.findIndex((x) => x.end !== null);
        if (i < 0) break;
        this.windows.splice(i, 1);
      }
      return this.tell(w, 'opened', input.t, by);
    }
    const w = this.windows.find((x) => x.id === input.windowId);
    if (!w) return;
    if (input.op === 'stop') return this.close(w, input.t, 'closed', by);
    w.until = input.until;
    this.tell(w, 'extended', input.t, by);
  }

  private close(w: MaintenanceWindow, at: number, what: 'closed' | 'expired', by: string | null): void {
    w.end = Math.max(w.start, at);
    this.tell(w, what, w.end, by);
  }

  private tell(w: MaintenanceWindow, what: MaintenanceEvent['what'], at: number, by: string | null): void {
    const event: MaintenanceEvent = { windowId: w.id, what, at, by, reason: w.reason, until: w.until, silenceCritical: w.silenceCritical };
    this.tally[what] += 1;
    for (const l of this.listeners) l(event);
  }
}

function tooLong(what: string): MaintenanceError {
  return new MaintenanceError('BAD_REQUEST', `${what} would last more than ${MAX_MAINTENANCE_TEXT}, the longest one may: open a new window when this one ends`);
}
