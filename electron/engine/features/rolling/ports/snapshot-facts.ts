import type { ClusterSnapshot } from '../../../../contract/schemas/snapshot.js';
import type { Known, NdbFacts } from '../types.js';

type Facts<K extends keyof NdbFacts> = NdbFacts[K] extends Known<infer T> ? Known<T> : never;

/** The backup running now as the engine's backup tracker tells it (its `running` status), from the snapshot. */
export function backupFact(snap: Pick<ClusterSnapshot, 'backup' | 'connection'>): Facts<'backup'> {
  const stream = snap.connection.eventStream.status;
  if (stream !== 'live') return { known: false, why: `the event stream is ${stream}: a backup's events would not be seen` };
  const b = snap.backup;
  return { known: true, value: b?.status === 'running' ? { backupId: b.backupId, startedAt: b.startedAt } : null };
}

/** Each data node's redo fill (the Redo view's figure: ndbinfo `logspaces`, the fullest part), from the snapshot. */
export function redoFact(snap: Pick<ClusterSnapshot, 'ndbinfo' | 'ndbinfoNodes'>): Facts<'redo'> {
  const source = snap.ndbinfo?.source;
  if (!source) return { known: false, why: 'no SQL source: ndbinfo logspaces is not read' };
  if (source.status !== 'up') return { known: false, why: `the SQL source is ${source.status}${source.lastError ? ` (${source.lastError})` : ''}` };
  const value = (snap.ndbinfoNodes ?? []).flatMap((n) => (n.redo && n.redo.percent !== null && !n.stale ? [{ nodeId: n.nodeId, percent: n.redo.percent, at: n.redo.at }] : []));
  return { known: true, value };
}

/** ArbitrationRank's defaults when the configuration does not carry it (config/params.ts key 200). */
const DEFAULT_RANK: Record<string, number> = { MGM: 1, API: 0, NDB: 0 };

/** The nodes the configuration makes arbitrator candidates (ArbitrationRank 1 before 2), by node id. */
export function arbitrationCandidates(nodes: ReadonlyArray<{ nodeId: number; type: string; params: Readonly<Record<string, unknown>> }>): Array<{ nodeId: number; rank: number }> {
  return nodes
    .map((n) => ({ nodeId: n.nodeId, rank: Number(n.params['ArbitrationRank'] ?? DEFAULT_RANK[n.type] ?? 0) }))
    .filter((c) => c.rank === 1 || c.rank === 2)
    .sort((a, b) => a.rank - b.rank || a.nodeId - b.nodeId);
}

/** What the last ArbitState said: the arbitrator started (its node), or failed or exited (null). */
export interface ArbitSeen {
  nodeId: number | null;
  code: number;
}

/**
 * Whether an arbitrator is there: the last ArbitState seen names it (or says it failed); before any, a candidate of
 * the configuration (ArbitrationRank 1 or 2) that is connected. The president picks among the candidates, so a
 * connected candidate is what the cluster can have; the ArbitState, when seen, is what it has.
 */
export function arbitratorFact(candidates: ReadonlyArray<{ nodeId: number; rank: number }> | null, connected: ReadonlySet<number>, seen: ArbitSeen | null): Facts<'arbitrator'> {
  if (seen) {
    if (seen.nodeId === null) return { known: true, value: { nodeId: null, how: `the last ArbitState (code ${seen.code}) said the arbitrator failed or exited, and none was chosen since` } };
    if (connected.has(seen.nodeId)) return { known: true, value: { nodeId: seen.nodeId, how: 'chosen, as the last ArbitState said, and connected' } };
    return { known: true, value: { nodeId: null, how: `node ${seen.nodeId}, the arbitrator the last ArbitState named, is not connected` } };
  }
  if (candidates === null) return { known: false, why: "the configuration's ArbitrationRank was not read" };
  if (candidates.length === 0) return { known: true, value: { nodeId: null, how: 'no node has ArbitrationRank 1 or 2 in the configuration' } };
  const up = candidates.find((c) => connected.has(c.nodeId));
  if (!up) return { known: true, value: { nodeId: null, how: `no arbitrator candidate (ArbitrationRank 1 or 2: ${candidates.map((c) => `node ${c.nodeId}`).join(', ')}) is connected` } };
  return { known: true, value: { nodeId: up.nodeId, how: `ArbitrationRank ${up.rank} in the configuration, connected` } };
}

/** The management and API nodes connected now (what an arbitrator can be), from `get status` or the snapshot. */
export function connectedNonData(nodes: ReadonlyArray<{ nodeId: number; type: string; status: string }>): Set<number> {
  return new Set(nodes.filter((n) => n.type !== 'NDB' && n.status === 'CONNECTED').map((n) => n.nodeId));
}
