import { NdbinfoSource, type NdbinfoSourceOptions } from '../../../../ndbinfo/client/ndbinfo-source.js';
import type { SqlNodeAddress } from '../../../../ndbinfo/client/sql-url.js';
import type { TrackerInput } from '../../cluster/tracker-input.js';

/** A cluster's SQL nodes, as `--sql` or a connection profile names them, and the password from a file or the environment. */
export interface SqlSourceSpec {
  addresses: SqlNodeAddress[];
  password: string | undefined;
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
    this.source = new NdbinfoSource({ connectTimeoutMs: 5000, queryTimeoutMs: 5000, ...sourceOptions, addresses: spec.addresses, password: spec.password });
    this.source.subscribe((e) => {
      if (e.type === 'sample') sink({ kind: 'ndbinfo', t: e.sample.at, sample: e.sample });
      else if (e.type === 'state') {
        this.up = e.state.kind === 'up';
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

  /** The management server says a data node is starting: restart_info every second until it says otherwise. */
  setRestartWatch(on: boolean): void {
    this.source.setRestartWatch(on);
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.source.close();
  }
}
