import { MgmClient } from '../../../../../native-mgm/client/mgm-client.js';
import { CommandFailedError, ServerParserError, TimeoutError, type MgmHost, type MgmTlsOptions, type NodeState } from '../../../../../native-mgm/index.js';
import type { ClusterPort, RestartBounds, RestartOutcome } from './ports.js';
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
      // While the link redials, the call only times out waiting for it: why the dials fail is the news.
      const { status, lastError } = this.poller.state;
      const error = status !== 'connected' && lastError ? lastError : message(err);
      return { at: this.now(), connected: false, error, nodes: [], criticalAlerts: [], restartCompleted: null };
    }
  }

  restart(nodeIds: readonly number[], bounds: RestartBounds): Promise<RestartOutcome> {
    return restartOnSession(this.options, nodeIds, bounds);
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
 * returns; the CLI's port and the engine's hosted conductor both send this way. The reply is waited for within
 * `bounds` only: a reply given up ends the session (the protocol pairs replies with requests by order alone, so a
 * late one could be read as the answer to a next request), and this session carries no other request anyway.
 */
export async function restartOnSession(options: MgmPortOptions, nodeIds: readonly number[], bounds: RestartBounds): Promise<RestartOutcome> {
  const client = new MgmClient({ ...clientOptions(options), reconnect: false });
  try {
    try {
      await client.connect(bounds.signal);
    } catch (err) {
      return { kind: 'refused', text: `no management server could be reached to send it, so nothing was sent (${message(err)})` };
    }
    try {
      await client.restart(nodeIds, { initial: false, noStart: false, abort: false, force: false }, bounds);
      return { kind: 'ok' };
    } catch (err) {
      // The server's own words: `5028-Node shutdown would cause system crash: …` (spec §4.13).
      if (err instanceof CommandFailedError) return { kind: 'refused', text: err.result };
      if (err instanceof ServerParserError) return { kind: 'refused', text: err.serverMessage };
      if (bounds.signal.aborted) return { kind: 'lost', error: `no reply, given up: ${message(bounds.signal.reason)}` };
      if (err instanceof TimeoutError) return { kind: 'lost', error: `no reply within ${Math.round(bounds.timeoutMs / 1000)} s` };
      return { kind: 'lost', error: message(err) };
    }
  } finally {
    client.close();
  }
}
