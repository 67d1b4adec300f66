import type { Server } from 'node:http';
import { isIPv6, type Socket } from 'node:net';

export interface SlotLimits {
  /** Connections open at once, whatever their state. */
  maxConnections: number;
  /** Of them, slots that connections which have not yet sent complete request headers can never take. */
  reservedForRequests: number;
  /** Connections without complete headers from one source (an IPv4 address, an IPv6 /64). */
  maxPreHeaderPerSource: number;
}

interface Pending {
  socket: Socket;
  /** The peer's address and port, kept: a destroyed socket no longer has them. */
  key: string;
  source: string;
}

/**
 * Where a connection comes from, for the per-source cap: an IPv4 address (also when IPv4-mapped), else the /64
 * an IPv6 address is in, since one host is usually given a whole /64 and could otherwise count as millions.
 */
export function connectionSource(address: string | undefined): string {
  const a = (address ?? '').toLowerCase().replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
  if (!isIPv6(a)) return a;
  const [head = '', tail = ''] = a.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === '' ? [] : tail.split(':');
  const groups = a.includes('::') ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

/** Raw and TLS sockets of one connection share the peer's address and port; a connection is known by them. */
const peerKey = (socket: Socket): string => `${socket.remoteAddress ?? ''}|${socket.remotePort ?? ''}`;

/**
 * Connection slots that silent clients cannot exhaust. Node's `maxConnections` refused every new connection
 * once 256 sockets that never sent a byte were open, until the headers timeout cut them some 12 s later, again
 * and again, and off loopback without any token (it is read from the headers). Here a connection is pending
 * from accept until its request headers are complete (`request` or `upgrade`), then it is a client's:
 * - pending connections never take the `reservedForRequests` slots, so clients that got their headers in
 *   (pages, their WebSockets, keep-alive requests) always have room;
 * - one source holds at most `maxPreHeaderPerSource` pending connections: at its cap its own oldest one is
 *   closed for the new one, so it cannot crowd out others, and a client sharing its address (NAT, a proxy,
 *   loopback) still gets in;
 * - when pending connections fill their share, or every slot is taken, the oldest pending connection that has
 *   sent nothing at all is closed for the new one (else the oldest pending one): an honest client sends its
 *   headers at once, so it is the youngest and is not the one closed;
 * - only when every slot holds a client past its headers is the new connection refused at accept.
 *
 * Returns what closes every connection still open: the server's own closeAllConnections() misses a TLS connection
 * still in its handshake (a silent client), which would hold the server's close until the handshake timeout (2 min).
 */
export function guardConnectionSlots(server: Server, limits: SlotLimits): () => void {
  const all = new Set<Socket>();
  /** Insertion order is accept order: the first entries are the oldest. */
  const pending = new Map<string, Pending>();
  const perSource = new Map<string, number>();
  const maxPending = limits.maxConnections - limits.reservedForRequests;
  if (maxPending < 1 || limits.maxPreHeaderPerSource < 1) throw new RangeError('connection slots: no room for a connection to send its request');

  /**
   * Ends the pending state of the connection open at `key`, the peer's address and port: only one connection at a
   * time can have them, and `req.socket` is, over TLS, the socket wrapping the raw one that was accepted. `raw`
   * names the socket meant when it may be gone already (another connection may have its address and port by then).
   */
  const settle = (key: string, raw?: Socket): void => {
    const entry = pending.get(key);
    if (!entry || (raw !== undefined && entry.socket !== raw)) return;
    pending.delete(key);
    const left = (perSource.get(entry.source) ?? 1) - 1;
    if (left > 0) perSource.set(entry.source, left);
    else perSource.delete(entry.source);
  };
  const close = (entry: Pending): void => {
    all.delete(entry.socket);
    settle(entry.key, entry.socket);
    entry.socket.destroy();
  };
  const oldest = (of: (p: Pending) => boolean): Pending | undefined => {
    for (const p of pending.values()) if (of(p)) return p;
    return undefined;
  };

  server.prependListener('connection', (socket: Socket) => {
    // Reset before it was accepted: nothing to count.
    if (socket.remoteAddress === undefined) {
      socket.destroy();
      return;
    }
    const source = connectionSource(socket.remoteAddress);
    if ((perSource.get(source) ?? 0) >= limits.maxPreHeaderPerSource) {
      const own = oldest((p) => p.source === source);
      if (own) close(own);
    }
    if (pending.size >= maxPending || all.size >= limits.maxConnections) {
      const victim = oldest((p) => p.socket.bytesRead === 0) ?? oldest(() => true);
      if (victim) close(victim);
    }
    if (all.size >= limits.maxConnections) {
      socket.destroy();
      return;
    }
    const key = peerKey(socket);
    all.add(socket);
    pending.set(key, { socket, key, source });
    perSource.set(source, (perSource.get(source) ?? 0) + 1);
    socket.once('close', () => {
      all.delete(socket);
      settle(key, socket);
    });
  });
  const headersIn = (req: { socket: Socket }): void => settle(peerKey(req.socket));
  server.prependListener('request', headersIn);
  server.prependListener('upgrade', headersIn);
  return () => {
    for (const socket of all) socket.destroy();
  };
}
