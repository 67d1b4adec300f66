import type { Metric } from '../../../contract/schemas/history.js';
import type { ClusterSnapshot } from '../../../contract/schemas/snapshot.js';
import { mgmLostWhy } from '../../../contract/page-safe/source-lost.js';

/** Which source each exported metric is read from: the management server's reports or the SQL node's ndbinfo. */
const METRIC_SOURCE: Record<Metric, 'mgm' | 'ndbinfo'> = {
  transactions: 'mgm',
  commits: 'mgm',
  reads: 'mgm',
  writes: 'mgm',
  scans: 'mgm',
  aborts: 'mgm',
  operations: 'mgm',
  dataMemory: 'mgm',
  indexMemory: 'mgm',
  hottestThread: 'ndbinfo',
  redoFill: 'ndbinfo',
};

/** A series whose figures are not current: its last figure, and why and since when nothing newer came. */
export interface StaleSeries {
  key: string;
  /** When the series last had a figure (null: none in the export). */
  lastSeenAt: number | null;
  why: string;
  since: number;
}

interface Lost {
  why: string;
  since: number;
}

/** What is lost now, by source, as the snapshot says it (the page's words: `mgmLostWhy`). */
function lostSources(s: ClusterSnapshot): { mgm: Lost | null; ndbinfo: Lost | null } {
  const mgmWhy = mgmLostWhy(s.connection.status);
  const sql = s.ndbinfo?.source;
  const sqlLost = sql && (sql.status === 'lost' || sql.status === 'failing') ? sql : null;
  return {
    mgm: mgmWhy === null ? null : { why: mgmWhy, since: s.connection.trouble?.since ?? s.sampledAt ?? 0 },
    ndbinfo: sqlLost ? { why: sqlLost.status === 'lost' ? 'ndbtop lost the SQL node' : 'the SQL node stopped answering ndbinfo', since: sqlLost.since } : null,
  };
}

/**
 * The exported series whose figures are last-seen ones, as the page shows them: every series of a lost source, and a
 * node's series from the management server while that node is out of contact. `lastSeenAt` is the series' own last
 * figure in the export.
 */
export function staleSeries(
  snapshot: ClusterSnapshot,
  series: ReadonlyArray<{ key: string; metric: Metric; values: ReadonlyArray<number | null> }>,
  at: readonly number[],
): StaleSeries[] {
  const lost = lostSources(snapshot);
  const outOfContact = new Map(snapshot.nodes.filter((n) => n.lastSeenAt !== null && n.lastSeenAt !== undefined).map((n) => [n.nodeId, n]));
  const out: StaleSeries[] = [];
  for (const s of series) {
    const source = METRIC_SOURCE[s.metric];
    const node = outOfContact.get(Number(/^node\.(\d+)\./.exec(s.key)?.[1]));
    const reason = lost[source] ?? (source === 'mgm' && node ? { why: `node ${node.nodeId} is out of contact`, since: node.statusSince } : null);
    if (!reason) continue;
    let last = s.values.length - 1;
    while (last >= 0 && (s.values[last] === null || s.values[last] === undefined)) last--;
    out.push({ key: s.key, lastSeenAt: last >= 0 ? (at[last] ?? null) : null, ...reason });
  }
  return out;
}

/** A stale column's header note: "last seen TIME; WHY since TIME" (no comma: it stays one CSV field unquoted). */
export function staleNote(s: StaleSeries): string {
  const seen = s.lastSeenAt === null ? 'not seen' : `last seen ${new Date(s.lastSeenAt).toISOString()}`;
  return `${seen}; ${s.why} since ${new Date(s.since).toISOString()}`;
}
