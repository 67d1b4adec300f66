import { readFileSync } from 'node:fs';

/** Kernel states (/proc/net/tcp numbering) of sockets no process holds open any more (FIN_WAIT*, TIME_WAIT, CLOSE, LAST_ACK, CLOSING) or that listen. */
const GONE = new Set(['04', '05', '06', '07', '09', '0A', '0B']);

/**
 * This machine's open client-side TCP connections to `ports`, straight from /proc/net/tcp{,6}: what the kernel
 * holds, not what our code believes it holds, so a leaked socket is counted too. As `localPort->remotePort state`.
 */
export function openConnectionList(ports: readonly number[], excludeLocalPorts: ReadonlySet<number> = new Set()): string[] {
  const wanted = new Set(ports);
  const found: string[] = [];
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
      if (wanted.has(remotePort) && !excludeLocalPorts.has(localPort)) found.push(`${localPort}->${remotePort} ${state}`);
    }
  }
  return found;
}

/** Samples the count every `everyMs` (not while `unsure()`) and keeps the highest seen; stop() returns it. */
export function watchConnections(
  ports: () => readonly number[],
  excludeLocalPorts: ReadonlySet<number>,
  unsure: () => boolean = () => false,
  everyMs = 50,
): { stop(): number; readonly max: number; readonly atMax: string[] } {
  let max = 0;
  let atMax: string[] = [];
  const timer = setInterval(() => {
    if (unsure()) return;
    const now = openConnectionList(ports(), excludeLocalPorts);
    if (now.length > max) [max, atMax] = [now.length, now];
  }, everyMs);
  return {
    get max() {
      return max;
    },
    get atMax() {
      return atMax;
    },
    stop() {
      clearInterval(timer);
      return max;
    },
  };
}
