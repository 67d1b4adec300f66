import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { isIPv6, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { behindPace, cutSlowBody, overPace, type BodyPace } from './body-pace.js';

export interface SlotLimits {
  /** Connections open at once, whatever their state. */
  maxConnections: number;
  /** Of them, slots that connections which have not yet sent complete request headers can never take. */
  reservedForRequests: number;
  /** Connections without complete headers from one source (an IPv4 address, an IPv6 /64). */
  maxPreHeaderPerSource: number;
  /** How fast a request body must come (body-pace.ts). */
  bodyPace: BodyPace;
  /** Whether an upgraded connection is a WebSocket whose client reads nothing (answers no ping). */
  unreadWebSocket(socket: Duplex): boolean;
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

/** A connection past its request headers: its latest request, or the upgrade it became. */
interface Settled {
  /** The socket accepted (under TLS, the raw one). */
  socket: Socket;
  /** What its request arrived on (under TLS, the TLS socket). */
  wire: Socket;
  /** When its latest request headers came in. */
  since: number;
  /**
   * Bytes read before its latest request: a body is counted from here, headers included (a few KiB in the client's
   * favour), since what of the read that ended the headers was body cannot be told.
   */
  readBefore: number;
  request?: { req: IncomingMessage; res: ServerResponse; answeredAt?: number };
  upgraded?: boolean;
}

/** Who yields a slot to a new connection: the lowest rank first, within one the one longest in that state. */
const IDLE_KEEP_ALIVE = 0;
const SLOW_BODY = 1;
const UNREAD_WEBSOCKET = 2;

/**
 * Connection slots that silent, dribbling and idle clients cannot exhaust. Node's `maxConnections` refused every
 * new connection once 256 sockets that never sent a byte were open, until the headers timeout cut them some 12 s
 * later, again and again, and off loopback without any token (it is read from the headers); 256 request bodies
 * dribbled a byte every 5 s, 256 idle keep-alives or unread WebSockets did the same past their headers. Here a
 * connection is pending from accept until its request headers are complete (`request` or `upgrade`), then it is
 * a client's:
 * - pending connections never take the `reservedForRequests` slots, so clients that got their headers in
 *   (pages, their WebSockets, keep-alive requests) always have room;
 * - one source holds at most `maxPreHeaderPerSource` pending connections: at its cap its own oldest one is
 *   closed for the new one, so it cannot crowd out others, and a client sharing its address (NAT, a proxy,
 *   loopback) still gets in;
 * - when pending connections fill their share, the oldest pending connection that has sent nothing at all is
 *   closed for the new one (else the oldest pending one): an honest client sends its headers at once, so it is
 *   the youngest and is not the one closed;
 * - when every slot is taken, a client that holds one without using it yields it to the new connection: first
 *   the keep-alive connection idle the longest, then the oldest body behind its pace (body-pace.ts), then the
 *   oldest WebSocket whose client reads nothing; without one, the oldest pending connection as above. A
 *   connection being answered, a body on pace and a WebSocket that answers its pings keep theirs;
 * - only when every slot holds a client in use is the new connection refused at accept.
 * A body past its grace and behind its pace is cut with a 408 whatever the slots (body-pace.ts).
 *
 * Returns what closes every connection still open: the server's own closeAllConnections() misses a TLS connection
 * still in its handshake (a silent client), which would hold the server's close until the handshake timeout (2 min).
 */
export function guardConnectionSlots(server: Server, limits: SlotLimits): () => void {
  const all = new Set<Socket>();
  /** Insertion order is accept order: the first entries are the oldest. */
  const pending = new Map<string, Pending>();
  const perSource = new Map<string, number>();
  const settled = new Map<string, Settled>();
  const pace = limits.bodyPace;
  const maxPending = limits.maxConnections - limits.reservedForRequests;
  if (maxPending < 1 || limits.maxPreHeaderPerSource < 1) throw new RangeError('connection slots: no room for a connection to send its request');

  /**
   * Ends the pending state of the connection open at `key`, the peer's address and port: only one connection at a
   * time can have them, and `req.socket` is, over TLS, the socket wrapping the raw one that was accepted. `raw`
   * names the socket meant when it may be gone already (another connection may have its address and port by then).
   * Returns the socket accepted, if it was pending.
   */
  const settle = (key: string, raw?: Socket): Socket | undefined => {
    const entry = pending.get(key);
    if (!entry || (raw !== undefined && entry.socket !== raw)) return undefined;
    pending.delete(key);
    const left = (perSource.get(entry.source) ?? 1) - 1;
    if (left > 0) perSource.set(entry.source, left);
    else perSource.delete(entry.source);
    return entry.socket;
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
  /** An honest client sends its headers at once: the oldest pending connection that sent nothing, else the oldest. */
  const oldestPending = (): Pending | undefined => oldest((p) => p.socket.bytesRead === 0) ?? oldest(() => true);

  const received = (c: Settled): number => c.wire.bytesRead - c.readBefore;
  /** Where a client past its headers stands in the order of yielding its slot; undefined while it uses it. */
  const yieldRank = (c: Settled, now: number): { rank: number; since: number } | undefined => {
    if (c.upgraded) return limits.unreadWebSocket(c.wire) ? { rank: UNREAD_WEBSOCKET, since: c.since } : undefined;
    const r = c.request;
    if (!r) return undefined;
    if (!r.req.complete) return behindPace(pace, now - c.since, received(c)) ? { rank: SLOW_BODY, since: c.since } : undefined;
    return r.answeredAt === undefined ? undefined : { rank: IDLE_KEEP_ALIVE, since: r.answeredAt };
  };
  const yielding = (now: number): [string, Settled] | undefined => {
    let best: { key: string; entry: Settled; rank: number; since: number } | undefined;
    for (const [key, entry] of settled) {
      const y = yieldRank(entry, now);
      if (y && (!best || y.rank < best.rank || (y.rank === best.rank && y.since < best.since))) best = { key, entry, ...y };
    }
    return best && [best.key, best.entry];
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
    if (pending.size >= maxPending) {
      const victim = oldestPending();
      if (victim) close(victim);
    }
    if (all.size >= limits.maxConnections) {
      const unused = yielding(Date.now());
      if (unused) {
        const [key, entry] = unused;
        settled.delete(key);
        all.delete(entry.socket);
        entry.wire.destroy();
        entry.socket.destroy();
      } else {
        const victim = oldestPending();
        if (victim) close(victim);
      }
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
      if (settled.get(key)?.socket === socket) settled.delete(key);
    });
  });
  /** The connection's latest request headers are in; undefined if it was never counted (reset before accept). */
  const headersIn = (wire: Socket): Settled | undefined => {
    const key = peerKey(wire);
    const accepted = settle(key);
    const entry = accepted ? { socket: accepted, wire, since: 0, readBefore: 0 } : settled.get(key);
    if (!entry) return undefined;
    entry.since = Date.now();
    settled.set(key, entry);
    return entry;
  };
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const entry = headersIn(req.socket);
    if (!entry) return;
    const request: NonNullable<Settled['request']> = { req, res };
    entry.request = request;
    res.once('finish', () => {
      request.answeredAt = Date.now();
      entry.readBefore = entry.wire.bytesRead;
    });
  });
  server.prependListener('upgrade', (req: IncomingMessage) => {
    const entry = headersIn(req.socket);
    if (!entry) return;
    entry.request = undefined;
    entry.upgraded = true;
  });

  // Node's requestTimeout would bound a whole request, uploads included: the pace is checked here instead.
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const c of settled.values()) {
      if (c.request && !c.request.req.complete && overPace(pace, now - c.since, received(c))) cutSlowBody(c.request.res, pace, received(c));
    }
  }, Math.min(1000, pace.graceMs / 2));
  sweep.unref();
  server.once('close', () => clearInterval(sweep));
  return () => {
    clearInterval(sweep);
    for (const socket of all) socket.destroy();
  };
}
