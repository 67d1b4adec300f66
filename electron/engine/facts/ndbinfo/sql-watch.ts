import { NdbinfoSource, type NdbinfoSourceOptions } from '../../../../ndbinfo/client/ndbinfo-source.js';
import type { SqlNodeAddress } from '../../../../ndbinfo/client/sql-url.js';
import type { TrackerInput } from '../../cluster/tracker-input.js';

/** A cluster's SQL nodes, as `--sql` or a connection profile names them, and the password from a file or the environment. */
export interface SqlSourceSpec {
  addresses: SqlNodeAddress[];
  password: string | undefined;
  /** PEM of the CA that signed the SQL nodes' certificates (--sql-ca): TLS, server verified. */
  tlsCa?: string;
  /** PEM of the SQL nodes' RSA public key (--sql-server-public-key). */
  serverPublicKey?: string;
  /** Secrets besides the password (serve's token): no value from an SQL node carries one out. */
  secrets?: string[];
}

export type SqlWatchOptions = Partial<Omit<NdbinfoSourceOptions, 'addresses' | 'password'>> & {
  /** How often the source's self-load becomes an input (default 5 s). */
  loadEveryMs?: number;
};

const LOAD_EVERY_MS = 5000;

/**
 * One cluster's SQL source: turns its events into tracker inputs (so the recorder writes them and a replay feeds
 * them back) and its self-load into an input every few seconds. The password stays in the source's options: no
 * input carries it (states and errors name the SQL node by its display URL, which never has one).
 */
export class SqlWatch {
  private readonly source: NdbinfoSource;
  private readonly timer: NodeJS.Timeout;
  private up = false;

  constructor(spec: SqlSourceSpec, sink: (input: TrackerInput) => void, options: SqlWatchOptions = {}) {
    const { loadEveryMs, ...sourceOptions } = options;
    const { addresses, password, tlsCa, serverPublicKey, secrets } = spec;
    this.source = new NdbinfoSource({
      connectTimeoutMs: 5000,
      queryTimeoutMs: 5000,
      ...sourceOptions,
      addresses,
      password,
      ...(tlsCa !== undefined ? { tlsCa } : {}),
      ...(serverPublicKey !== undefined ? { serverPublicKey } : {}),
      ...(secrets ? { secrets } : {}),
    });
    this.source.subscribe((e) => {
      if (e.type === 'sample') sink({ kind: 'ndbinfo', t: e.sample.at, sample: e.sample });
      else if (e.type === 'state') {
        this.up = e.state.kind === 'up' || e.state.kind === 'failing';
        sink({ kind: 'ndbinfo-link', t: e.state.at, state: e.state });
      }
    });
    this.timer = setInterval(() => {
      if (!this.up) return;
      const t = Date.now();
      sink({ kind: 'ndbinfo-load', t, load: this.source.selfLoad(t) });
    }, loadEveryMs ?? LOAD_EVERY_MS);
    this.timer.unref();
    this.source.start();
  }

  /** Every input of the cluster: the management server's `get status` says how many data nodes bound an answer. */
  observe(input: TrackerInput): void {
    if (input.kind === 'status') this.source.setShape({ dataNodes: input.nodes.filter((n) => n.type === 'NDB').length });
  }

  /** The management server says a data node is starting: restart_info every second until it says otherwise. */
  setRestartWatch(on: boolean): void {
    this.source.setRestartWatch(on);
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.source.close();
  }
}
