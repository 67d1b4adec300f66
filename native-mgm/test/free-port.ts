import { createServer } from 'node:net';

// The kernel hands out ports for bind(0) and outgoing connections from net.ipv4.ip_local_port_range
// (32768–60999 by default), and tests running in parallel bind port 0 all the time: a port learnt by binding 0
// and released can be taken by another test before its server binds it again (a serve-transport restart failed
// so in a clean-clone run). Below that range only callers of this function pick ports, at random.
const LOW = 20_000;
const HIGH = 32_000;

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/**
 * The first of `count` consecutive ports free on 127.0.0.1 now and outside the kernel's ephemeral range, for a
 * server that must come back on the same port, a `sim --mgm-nodes 2 --port P` (P and P+1), or an address nobody
 * listens on.
 */
export async function freePort(count = 1): Promise<number> {
  for (;;) {
    const first = LOW + Math.floor(Math.random() * (HIGH - LOW - count));
    let free = true;
    for (let port = first; free && port < first + count; port += 1) free = await bindable(port);
    if (free) return first;
  }
}
