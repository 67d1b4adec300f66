import type { ConnectionView } from '../../contract.js';
import type { Transport } from '../../store/ui-slice.js';

/**
 * When the figures on screen are from, if they are not current; null while they are. They are old once this page
 * lost its link to ndbtop (serve gone or frozen: the engine cannot say so itself) or ndbtop lost the management
 * server or it stopped answering (the engine marks each node too, but a page that cannot hear it must not wait).
 */
export function figuresAsOf(transport: Transport, connection: ConnectionView | null, sampledAt: number | null): number | null {
  const lost = transport === 'lost' || connection?.status === 'reconnecting' || connection?.status === 'offline' || connection?.status === 'stale' || connection?.status === 'refused';
  return lost ? (sampledAt ?? 0) : null;
}

/** What a card says of a node whose figures are old: when it was last seen, or that it never was. */
export function lastSeenText(seenAt: number, neverSeen: boolean, now: number, clock: (at: number) => string, duration: (ms: number) => string): string {
  if (neverSeen) return 'not seen since ndbtop started';
  return `last seen ${clock(seenAt)} (${duration(Math.max(0, now - seenAt))} ago)`;
}
