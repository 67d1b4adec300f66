import { MgmClient } from '../../../../../native-mgm/client/mgm-client.js';
import { CommandFailedError, ServerParserError, type MgmHost, type MgmTlsOptions, type NodeState } from '../../../../../native-mgm/index.js';
import type { ClusterPort, RestartOutcome } from './ports.js';
import type { Observation, ObservedNode } from '../types.js';

export interface MgmPortOptions {
  hosts: ReadonlyArray<MgmHost>;
  tls?: MgmTlsOptions;
  connectTimeoutMs: number;
  requestTimeoutMs: number;
  now?: () => number;
}

const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));

export const observedNode = (n: NodeState): ObservedNode => ({ nodeId: n.nodeId, status: n.status, nodeGroup: n.nodeGroup, dynamicId: n.dynamicId, startPhase: n.startPhase });

/**
 * The cluster over the management protocol alone (the CLI's conductor): `get status` on a long-lived session that
 * fails over along the connectstring, and each restart on a short-lived session of its own, so a restart that takes
 * minutes never holds up the polls (spec pitfall 17). No alert book and no ndbinfo here.
 */
export class MgmClusterPort implements ClusterPort {
  private readonly poller: MgmClient;
  private readonly now: () => number;

  constructor(private readonly options: MgmPortOptions) {
    this.now = options.now ?? Date.now;
    this.poller = new MgmClient({ ...this.clientOptions(), reconnect: true });
  }

  async observe(): Promise<Observation> {
    try {
      const nodes = await this.poller.getStatus(['NDB']);
      return { at: this.now(), connected: true, error: null, nodes: nodes.filter((n) => n.type === 'NDB').map(observedNode), criticalAlerts: [], restartCompleted: null };
    } catch (err) {
      return { at: this.now(), connected: false, error: message(err), nodes: [], criticalAlerts: [], restartCompleted: null };
    }
  }

  restart(nodeIds: readonly number[]): Promise<RestartOutcome> {
    return restartOnSession(this.options, nodeIds);
  }

  close(): void {
    this.poller.close();
  }

  private clientOptions(): ConstructorParameters<typeof MgmClient>[0] {
    return clientOptions(this.options);
  }
}

function clientOptions({ hosts, tls, connectTimeoutMs, requestTimeoutMs }: MgmPortOptions): ConstructorParameters<typeof MgmClient>[0] {
  return { hosts, connectTimeoutMs, requestTimeoutMs, ...(tls ? { tls } : {}) };
}

/**
 * `restart node v2` (normal: no initial, no nostart, no abort, never force) on a session of its own, closed when it
 * returns; the CLI's port and the engine's hosted conductor both send this way.
 */
export async function restartOnSession(options: MgmPortOptions, nodeIds: readonly number[]): Promise<RestartOutcome> {
  const client = new MgmClient({ ...clientOptions(options), reconnect: false });
  try {
    try {
      await client.connect();
    } catch (err) {
      return { kind: 'refused', text: `no management server could be reached to send it, so nothing was sent (${message(err)})` };
    }
    try {
      await client.restart(nodeIds, { initial: false, noStart: false, abort: false, force: false });
      return { kind: 'ok' };
    } catch (err) {
      // The server's own words: `5028-Node shutdown would cause system crash: …` (spec §4.13).
      if (err instanceof CommandFailedError) return { kind: 'refused', text: err.result };
      if (err instanceof ServerParserError) return { kind: 'refused', text: err.serverMessage };
      return { kind: 'lost', error: message(err) };
    }
  } finally {
    client.close();
  }
}
