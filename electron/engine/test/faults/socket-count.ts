import { readFileSync } from 'node:fs';

/** Kernel states (/proc/net/tcp numbering) of sockets no process holds open any more (FIN_WAIT*, TIME_WAIT, CLOSE, LAST_ACK, CLOSING) or that listen. */
const GONE = new Set(['04', '05', '06', '07', '09', '0A', '0B']);

/**
 * Counts this machine's open client-side TCP connections to the given ports, straight from /proc/net/tcp{,6}:
 * what the kernel holds, not what our code believes it holds, so a leaked or forgotten socket is counted too.
 */
export function openConnectionsTo(ports: readonly number[], excludeLocalPorts: ReadonlySet<number> = new Set()): number {
  const wanted = new Set(ports);
  let count = 0;
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      const [local, remote, state] = [cols[1], cols[2], cols[3]];
      if (!local || !remote || !state || GONE.has(state)) continue;
      const remotePort = parseInt(remote.split(':')[1] ?? '', 16);
      const localPort = parseInt(local.split(':')[1] ?? '', 16);
      if (wanted.has(remotePort) && !excludeLocalPorts.has(localPort)) count += 1;
    }
  }
  return count;
}

/** Samples the count every `everyMs` and keeps the highest seen; stop() returns it. */
export function watchConnections(ports: () => readonly number[], excludeLocalPorts: ReadonlySet<number>, everyMs = 50): { stop(): number; readonly max: number } {
  let max = 0;
  const timer = setInterval(() => {
    max = Math.max(max, openConnectionsTo(ports(), excludeLocalPorts));
  }, everyMs);
  return {
    get max() {
      return max;
    },
    stop() {
      clearInterval(timer);
      return max;
    },
  };
}
