import { MgmClient } from '../../../../../native-mgm/client/mgm-client.js';
import { CommandFailedError, ServerParserError, TimeoutError, type MgmHost, type MgmTlsOptions, type NodeState } from '../../../../../native-mgm/index.js';
import type { ClusterPort, RestartBounds, RestartOutcome } from './ports.js';
import { NdbEventWatch } from './ndb-watch.js';
import { arbitratorFact, connectedNonData } from './snapshot-facts.js';
import type { NdbFacts, Observation, ObservedNode } from '../types.js';

export interface MgmPortOptions {
  hosts: ReadonlyArray<MgmHost>;
  tls?: MgmTlsOptions;
  connectTimeoutMs: number;
  requestTimeoutMs: number;
  now?: () => number;
  /**
   * The configuration's arbitrator candidates (`arbitrationCandidates`); with them the port reads the NDB checks'
   * facts it can over the management protocol (backup, global checkpoints, arbitrator). Absent: none.
   */
  arbitration?: ReadonlyArray<{ nodeId: number; rank: number }>;
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
  private readonly watch: NdbEventWatch | null;

  constructor(private readonly options: MgmPortOptions) {
    this.now = options.now ?? Date.now;
    this.poller = new MgmClient({ ...this.clientOptions(), reconnect: true });
    this.watch = options.arbitration ? new NdbEventWatch({ ...this.clientOptions(), reconnect: true }, this.now) : null;
  }

  async observe(): Promise<Observation> {
    try {
      const all = await this.poller.getStatus(this.watch ? undefined : ['NDB']);
      const nodes = all.filter((n) => n.type === 'NDB').map(observedNode);
      const obs: Observation = { at: this.now(), connected: true, error: null, nodes, criticalAlerts: [], restartCompleted: null };
      return this.watch ? { ...obs, ndb: await this.ndbFacts(this.watch, connectedNonData(all)) } : obs;
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
    this.watch?.close();
  }

  /**
   * A backup as `dump events` type 62 tells it (a BackupStatus per running backup, spec §4.10: one started before
   * this port watched is seen too); global checkpoints and ArbitState from the port's own events; no ndbinfo here.
   */
  private async ndbFacts(watch: NdbEventWatch, connected: ReadonlySet<number>): Promise<NdbFacts> {
    let backup: NdbFacts['backup'];
    try {
      const status = (await this.poller.dumpEvents(62)).find((e) => e.name === 'BackupStatus');
      backup = { known: true, value: status ? { backupId: status.fields.backup_id ?? 0, startedAt: status.receivedAt } : null };
    } catch (err) {
      backup = { known: false, why: `REPORT BackupStatus (dump events 62) failed: ${message(err)}` };
    }
    return {
      backup,
      redo: { known: false, why: 'the redo log fill is read from ndbinfo, which this port does not read (--mark-url an ndbtop that has an SQL source)' },
      gcp: watch.gcp(),
      arbitrator: arbitratorFact(this.options.arbitration ?? null, connected, watch.arbitState()),
    };
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
