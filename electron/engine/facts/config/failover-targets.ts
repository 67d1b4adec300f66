import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { FAILOVER_POLICIES } from '../../../contract/page-safe/vocabulary.js';
import { DEFAULT_FAILOVER } from '../../../contract/page-safe/vocabulary.js';
import type { ClusterConfig, MgmHost } from '../../../../native-mgm/index.js';

export type FailoverPolicy = (typeof FAILOVER_POLICIES)[number];

/** A host's addresses (IPv4-mapped IPv6 as IPv4); a name that does not resolve now is known by its name. */
export type Resolve = (host: string) => Promise<string[]>;

export const resolveHost: Resolve = async (host) => {
  if (isIP(host) !== 0) return [host];
  try {
    return (await lookup(host, { all: true })).map((a) => a.address);
  } catch {
    return [];
  }
};

const plain = (address: string): string => address.toLowerCase().replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');

/** Every spelling a server at `host:port` goes by: its name and each address it resolves to. */
async function identities(host: MgmHost, resolve: Resolve): Promise<string[]> {
  const names = [host.host.toLowerCase(), ...(await resolve(host.host))].map(plain);
  return names.map((n) => `${n}|${host.port}`);
}

/**
 * Management servers `config` lists that none of `known` is: compared by resolved address and port, so the
 * configuration's `127.0.0.1:41001` is the connectstring's `localhost:41001`, not a second server to fail over to.
 */
export async function configMgmds(config: ClusterConfig, known: ReadonlyArray<MgmHost>, resolve: Resolve = resolveHost): Promise<MgmHost[]> {
  const seen = new Set((await Promise.all(known.map((h) => identities(h, resolve)))).flat());
  const out: MgmHost[] = [];
  for (const n of config.nodes) {
    if (n.type !== 'MGM' || n.hostname === '') continue;
    const host: MgmHost = { host: n.hostname, port: Number(n.params['PortNumber'] ?? 1186), bindAddress: null };
    const ids = await identities(host, resolve);
    if (ids.some((id) => seen.has(id))) continue;
    for (const id of ids) seen.add(id);
    out.push(host);
  }
  return out;
}

/**
 * The failover targets of one cluster beyond its connectstring: the management servers its configuration lists,
 * under the failover setting. Each change of the list goes to `apply` (the command and event links' extra hosts),
 * in the order the configurations and settings came, whatever their name lookups take.
 */
export class FailoverTargets {
  private learned: MgmHost[] = [];
  private config: ClusterConfig | null = null;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly connectstring: ReadonlyArray<MgmHost>,
    private policy: FailoverPolicy,
    private readonly apply: (learned: ReadonlyArray<MgmHost>) => void,
    private readonly resolve: Resolve = resolveHost,
  ) {}

  /** The connectstring's servers, then those learned: the order the links dial. */
  get hosts(): MgmHost[] {
    return [...this.connectstring, ...this.learned];
  }

  /** A new configuration generation (or the first). */
  configured(config: ClusterConfig): Promise<void> {
    this.config = config;
    return this.update();
  }

  setPolicy(policy: FailoverPolicy = DEFAULT_FAILOVER): Promise<void> {
    if (policy === this.policy) return this.queue;
    this.policy = policy;
    return this.update();
  }

  private update(): Promise<void> {
    this.queue = this.queue.then(async () => {
      const config = this.config;
      const next = config === null || this.policy === 'connectstring-only' ? [] : await configMgmds(config, this.connectstring, this.resolve);
      const same = next.length === this.learned.length && next.every((h, i) => h.host === this.learned[i]?.host && h.port === this.learned[i]?.port);
      if (same) return;
      this.learned = next;
      this.apply(next);
    });
    return this.queue;
  }
}
