import type { Socket } from 'node:net';
import { EVENT_TYPES } from '../../events/catalogue.js';
import type { SimClock } from '../state/sim-clock.js';
import type { SimEvent } from '../state/sim-event.js';
import { formatEventRecord, formatEventText } from './event-record.js';
import type { LevelMap } from './event-filter.js';
import type { OutputQueue } from './output-queue.js';

/** The server's event loop turns every 500 ms and pings each listener (spec §6.2). */
export const PING_INTERVAL_MS = 500;
const PING = '<PING>\n';
/**
 * A write to a listener that the kernel has not taken for this long fails on the server (about 1 s per write,
 * spec §6.2, §1.6), which then drops the listener; checked at each write and each turn of the PING loop.
 */
const WRITE_TIMEOUT_MS = 1000;
/** Whatever the timing, a listener this far behind has stopped reading (a last resort: the timeout comes first). */
const MAX_BACKLOG_BYTES = 16 * 1024 * 1024;

interface Listener {
  socket: Socket;
  out: OutputQueue;
  levels: LevelMap;
  parsable: boolean;
  /** Text waiting for this tick's write, when records are coalesced. */
  pending: string;
}

/**
 * One management server's event listeners: delivery with per-listener threshold filtering, PINGs from the
 * server's own real-time loop, and (optionally) several records coalesced into one write. A PING or record is
 * always appended whole, so a PING can only come between records.
 */
export class EventHub {
  private readonly listeners = new Set<Listener>();
  private cancelPing: () => void = () => undefined;
  private flushScheduled = false;

  constructor(
    private readonly clock: SimClock,
    private readonly coalesce: boolean,
  ) {
    this.schedulePing();
  }

  /** A new listener wakes the server's event loop, which pings the listeners it already has (spec §6.2). */
  add(socket: Socket, out: OutputQueue, levels: LevelMap, parsable: boolean): void {
    this.ping();
    const listener: Listener = { socket, out, levels, parsable, pending: '' };
    this.listeners.add(listener);
    const drop = (): void => this.drop(listener);
    socket.on('error', drop);
    socket.on('close', drop);
  }

  deliver(event: SimEvent): void {
    const spec = EVENT_TYPES.get(event.type);
    if (!spec) return;
    for (const l of this.listeners) {
      if (spec.threshold > (l.levels.get(spec.category) ?? 0)) continue;
      this.write(l, l.parsable ? formatEventRecord(event) : formatEventText(event));
    }
  }

  /** Closes every listener socket, as the server does when it shuts down. */
  closeAll(): void {
    this.cancelPing();
    for (const l of this.listeners) l.socket.destroy();
    this.listeners.clear();
  }

  private schedulePing(): void {
    this.cancelPing = this.clock.afterReal(PING_INTERVAL_MS, () => {
      this.ping();
      this.schedulePing();
    });
  }

  private ping(): void {
    for (const l of this.listeners) this.write(l, PING);
  }

  private write(l: Listener, text: string): void {
    if (l.out.backlog > MAX_BACKLOG_BYTES || l.out.stalledMs() > WRITE_TIMEOUT_MS) {
      this.drop(l);
      return;
    }
    if (!this.coalesce) {
      l.out.send(text);
      return;
    }
    l.pending += text;
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      for (const x of this.listeners) {
        x.out.send(x.pending);
        x.pending = '';
      }
    });
  }

  private drop(l: Listener): void {
    if (!this.listeners.delete(l)) return;
    l.socket.destroy();
  }
}
