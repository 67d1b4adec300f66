/**
 * Opens a TCP connection to the first management server in the list that accepts one, like mgmapi (spec §2.2):
 * in order, one connect timeout per host, a host that does not resolve counts as that host failing.
 */
import { createConnection, isIP } from 'node:net';
import type { Socket, TcpNetConnectOpts } from 'node:net';
import { lookup } from 'node:dns';
import type { MgmHost } from '../connectstring.js';
import { AbortedError, UnreachableError } from '../errors.js';

export interface DialOptions {
  /** Per host, including the name lookups for it. */
  connectTimeoutMs: number;
  signal?: AbortSignal;
  /** Host to try first (for failover: the one after the server just lost); the list wraps around once. */
  startIndex?: number;
  /** Opens the connection; node's own unless a test needs one that never completes. */
  connect?: (options: TcpNetConnectOpts) => Socket;
}

export interface DialResult {
  socket: Socket;
  host: string;
  port: number;
  /** Position of the winner in the host list. */
  index: number;
}

// Keeps firewall and NAT state alive on a command connection that idles between polls, and lets the OS notice a
// server host that vanished without a FIN.
const KEEPALIVE_INITIAL_DELAY_MS = 10_000;
const WHAT = 'connecting to the management server';
/**
 * A stream option net.Socket passes on (not in its typings): with the default 16 KiB a paused socket goes on
 * reading into its buffer until that is full, so a paused event stream (MgmConnection.readAtMostEvery) would still
 * wake the process for each record. While the socket flows, data is handed on as it is read, as before.
 */
const SMALL_READ_BUFFER = { readableHighWaterMark: 1 };

type LocalBind = Pick<TcpNetConnectOpts, 'localAddress' | 'localPort'>;

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const { code, syscall, address } = error as NodeJS.ErrnoException & { address?: string };
  if (code === undefined) return error.message;
  return syscall === 'bind' && address !== undefined ? `${code} binding to ${address}` : code;
}

/** Node needs a numeric local address; mgmapi also takes a name, so resolve it first, in the target's family. */
function resolveBind(target: MgmHost, done: (error: string | null, bind: LocalBind) => void): void {
  const bind = target.bindAddress;
  if (bind === null) return done(null, {});
  const local = (address: string): LocalBind => (bind.port === 0 ? { localAddress: address } : { localAddress: address, localPort: bind.port });
  if (isIP(bind.host) !== 0) return done(null, local(bind.host));
  const family = isIP(target.host);
  lookup(bind.host, { family: family === 6 ? 6 : family === 4 ? 4 : 0 }, (error, address) => {
    if (error) done(`bind address ${bind.host}: ${describe(error)}`, {});
    else done(null, local(address));
  });
}

/** One host: resolves to the connected socket or to why it failed; rejects only when aborted. */
function tryHost(
  target: MgmHost,
  timeoutMs: number,
  signal: AbortSignal | undefined,
  connect: (options: TcpNetConnectOpts) => Socket,
): Promise<Socket | string> {
  return new Promise((resolve, reject) => {
    let settled = false;
    let release: (won: boolean) => void = () => {};
    const onAbort = (): void => settle(new AbortedError(WHAT));
    const timer = setTimeout(() => settle(`connect timed out after ${timeoutMs} ms`), timeoutMs);
    signal?.addEventListener('abort', onAbort, { once: true });

    function settle(outcome: Socket | string | AbortedError): void {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (outcome instanceof AbortedError) {
        release(false);
        reject(outcome);
      } else {
        release(typeof outcome !== 'string');
        resolve(outcome);
      }
    }

    resolveBind(target, (bindError, bind) => {
      if (settled) return;
      if (bindError !== null) return settle(bindError);
      let socket: Socket;
      try {
        socket = connect({ host: target.host, port: target.port, ...bind, ...SMALL_READ_BUFFER });
      } catch (error) {
        return settle(describe(error));
      }
      const onConnect = (): void => settle(socket);
      const onError = (error: Error): void => settle(describe(error));
      socket.once('connect', onConnect);
      socket.on('error', onError);
      release = (won) => {
        socket.off('connect', onConnect);
        socket.off('error', onError);
        if (won) return;
        // A socket destroyed mid-connect may still report an error; with no listener that would crash the process.
        socket.on('error', () => {});
        socket.destroy();
      };
    });
  });
}

/**
 * Tries every host once, starting at `startIndex`, and returns the first connection made. Rejects with
 * UnreachableError listing each attempt and its reason, or with AbortedError as soon as `signal` fires.
 */
export async function dialFirstReachable(hosts: ReadonlyArray<MgmHost>, options: DialOptions): Promise<DialResult> {
  const { connectTimeoutMs, signal, startIndex = 0, connect = createConnection } = options;
  if (hosts.length === 0) throw new RangeError('no management server to dial');
  if (!(connectTimeoutMs > 0) || !Number.isFinite(connectTimeoutMs)) {
    throw new RangeError(`connect timeout must be a positive number of ms, got ${connectTimeoutMs}`);
  }
  if (!Number.isInteger(startIndex)) throw new RangeError(`start index must be an integer, got ${startIndex}`);
  const attempts: Array<{ host: string; port: number; error: string }> = [];
  const first = ((startIndex % hosts.length) + hosts.length) % hosts.length;
  for (const [step, target] of [...hosts.slice(first), ...hosts.slice(0, first)].entries()) {
    if (signal?.aborted === true) throw new AbortedError(WHAT);
    const outcome = await tryHost(target, connectTimeoutMs, signal, connect);
    if (typeof outcome === 'string') {
      attempts.push({ host: target.host, port: target.port, error: outcome });
      continue;
    }
    outcome.setNoDelay(true);
    outcome.setKeepAlive(true, KEEPALIVE_INITIAL_DELAY_MS);
    return { socket: outcome, host: target.host, port: target.port, index: (first + step) % hosts.length };
  }
  throw new UnreachableError(attempts);
}
