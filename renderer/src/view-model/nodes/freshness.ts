import { mgmLostWhy, type ConnectionView } from '../../contract.js';
import type { Transport } from '../../store/ui-slice.js';

/**
 * Why the figures on screen are not current, null while they are: this page lost its link to ndbtop (serve gone or
 * frozen: the engine cannot say so itself), or ndbtop lost the management server or it stopped answering (the engine
 * marks each node too, but a page that cannot hear it must not wait). The words a disabled control gives as its reason.
 */
export function figuresOldWhy(transport: Transport, connection: ConnectionView | null): string | null {
  if (transport === 'lost') return 'this page lost its link to ndbtop';
  return connection ? mgmLostWhy(connection.status) : null;
}

/** When the figures on screen are from, if they are not current (`figuresOldWhy`); null while they are. */
export function figuresAsOf(transport: Transport, connection: ConnectionView | null, sampledAt: number | null): number | null {
  return figuresOldWhy(transport, connection) === null ? null : (sampledAt ?? 0);
}

/** What a card says of a node whose figures are old: when it was last seen, or that it never was. */
export function lastSeenText(seenAt: number, neverSeen: boolean, now: number, clock: (at: number) => string, duration: (ms: number) => string): string {
  if (neverSeen) return 'not seen since ndbtop started';
  return `last seen ${clock(seenAt)} (${duration(Math.max(0, now - seenAt))} ago)`;
}
