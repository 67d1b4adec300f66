import type { NdbinfoNode } from '../../contract.js';

/** A heatmap row: one block thread of one data node. */
export interface ThreadLine {
  /** nodeId × 65 536 + thrNo, the key of its cells in the ThreadGrid. */
  key: number;
  nodeId: number;
  thrNo: number;
  kind: string;
  /** Kind and instance as ndb_top names them (`ldm 3`); a kind the node runs once has no number. */
  label: string;
}

export type ThreadSort = 'node' | 'hottest';

export const threadKey = (nodeId: number, thrNo: number): number => nodeId * 65_536 + thrNo;

/** `threads.thread_name`; a server without the `threads` table names none. */
export const threadKind = (name: string | null): string => name ?? 'thread';

/** The usual order of kinds in the strip and the filter; others follow by name. */
const KIND_ORDER = ['ldm', 'query', 'tc', 'recv', 'send', 'main', 'rep'];
const KIND_LABEL: Readonly<Record<string, string>> = { ldm: 'LDM', tc: 'TC' };

export const kindLabel = (kind: string): string => KIND_LABEL[kind] ?? kind;

export function compareKinds(a: string, b: string): number {
  const ia = KIND_ORDER.indexOf(a);
  const ib = KIND_ORDER.indexOf(b);
  return (ia < 0 ? KIND_ORDER.length : ia) - (ib < 0 ? KIND_ORDER.length : ib) || a.localeCompare(b);
}

/** A thread by its node, number and name: what a heatmap row is made from. */
export interface ThreadId {
  nodeId: number;
  thrNo: number;
  name: string | null;
}

/** The threads of every node's latest figures, in the nodes' order. */
export function latestThreads(nodes: Iterable<NdbinfoNode>): ThreadId[] {
  const out: ThreadId[] = [];
  for (const n of nodes) for (const t of n.threads?.threads ?? []) out.push({ nodeId: n.nodeId, thrNo: t.thrNo, name: t.name });
  return out;
}

/** Whether the latest figures name the same threads, in the same order, as `known` (latestThreads of earlier ones). */
export function sameThreads(known: readonly ThreadId[], nodes: Iterable<NdbinfoNode>): boolean {
  let i = 0;
  for (const n of nodes) {
    for (const t of n.threads?.threads ?? []) {
      const k = known[i++];
      if (!k || k.nodeId !== n.nodeId || k.thrNo !== t.thrNo || k.name !== t.name) return false;
    }
  }
  return i === known.length;
}

/** Rows for threads given by node and number, numbered within their kind on their node in thread-number order. */
export function threadLines(threads: readonly ThreadId[]): ThreadLine[] {
  const sorted = [...threads].sort((a, b) => a.nodeId - b.nodeId || a.thrNo - b.thrNo);
  const perNodeKind = new Map<string, number>();
  for (const t of sorted) perNodeKind.set(`${t.nodeId}:${threadKind(t.name)}`, (perNodeKind.get(`${t.nodeId}:${threadKind(t.name)}`) ?? 0) + 1);
  const seen = new Map<string, number>();
  return sorted.map((t) => {
    const kind = threadKind(t.name);
    const id = `${t.nodeId}:${kind}`;
    const index = seen.get(id) ?? 0;
    seen.set(id, index + 1);
    return { key: threadKey(t.nodeId, t.thrNo), nodeId: t.nodeId, thrNo: t.thrNo, kind, label: (perNodeKind.get(id) ?? 0) > 1 ? `${kind} ${index}` : kind };
  });
}

/**
 * Rows grouped by node, filtered to one kind (null: all). By node: node and thread number. By hottest: nodes by their
 * hottest thread's `heat` (the window's mean busy share), highest first, and the threads of a node likewise.
 */
export function arrangeLines(lines: readonly ThreadLine[], sort: ThreadSort, kind: string | null, heat: (key: number) => number): ThreadLine[] {
  const shown = kind === null ? [...lines] : lines.filter((l) => l.kind === kind);
  if (sort === 'node') return shown.sort((a, b) => a.nodeId - b.nodeId || a.thrNo - b.thrNo);
  const hottestOfNode = new Map<number, number>();
  const heatOf = new Map<number, number>();
  for (const l of shown) {
    const h = heat(l.key);
    heatOf.set(l.key, h);
    hottestOfNode.set(l.nodeId, Math.max(hottestOfNode.get(l.nodeId) ?? -1, h));
  }
  return shown.sort((a, b) => hottestOfNode.get(b.nodeId)! - hottestOfNode.get(a.nodeId)! || a.nodeId - b.nodeId || heatOf.get(b.key)! - heatOf.get(a.key)! || a.thrNo - b.thrNo);
}

/** The kinds the rows have, in the strip's order. */
export function kindsOf(lines: readonly ThreadLine[]): string[] {
  return [...new Set(lines.map((l) => l.kind))].sort(compareKinds);
}

export interface KindAverage {
  kind: string;
  /** Mean busy share of the node's threads of this kind, percent. */
  busy: number;
}

export interface NodeKinds {
  nodeId: number;
  stale: boolean;
  kinds: KindAverage[];
}

/** Per data node, the mean busy share of each kind of thread at the latest reading ("LDM 94 %, TC 41 %, …"). */
export function kindAverages(nodes: Iterable<NdbinfoNode>): NodeKinds[] {
  const out: NodeKinds[] = [];
  for (const n of nodes) {
    if (!n.threads || n.threads.threads.length === 0) continue;
    const sums = new Map<string, { total: number; count: number }>();
    for (const t of n.threads.threads) {
      const s = sums.get(threadKind(t.name)) ?? { total: 0, count: 0 };
      s.total += t.busy;
      s.count += 1;
      sums.set(threadKind(t.name), s);
    }
    const kinds = [...sums.entries()].map(([kind, s]) => ({ kind, busy: s.total / s.count })).sort((a, b) => compareKinds(a.kind, b.kind));
    out.push({ nodeId: n.nodeId, stale: n.stale, kinds });
  }
  return out.sort((a, b) => a.nodeId - b.nodeId);
}

export interface HotThread {
  nodeId: number;
  thrNo: number;
  label: string;
  busy: number;
}

/**
 * The busiest threads at the latest reading of every node whose figures are current, busiest first. It runs on every
 * push over all of them (2,880 at 144 × 20): one pass keeps the leaders, and only their nodes' threads are named.
 */
export function topThreads(nodes: Iterable<NdbinfoNode>, count = 10): HotThread[] {
  const before = (a: { nodeId: number; thrNo: number; busy: number }, b: { nodeId: number; thrNo: number; busy: number }): boolean => b.busy < a.busy || (b.busy === a.busy && (a.nodeId < b.nodeId || (a.nodeId === b.nodeId && a.thrNo < b.thrNo)));
  const leaders: Array<{ node: NdbinfoNode; thrNo: number; nodeId: number; busy: number; name: string | null }> = [];
  for (const n of nodes) {
    if (!n.threads || n.stale) continue;
    for (const t of n.threads.threads) {
      const entry = { node: n, nodeId: n.nodeId, thrNo: t.thrNo, busy: t.busy, name: t.name };
      if (leaders.length === count && !before(entry, leaders[count - 1]!)) continue;
      let at = Math.min(leaders.length, count - 1);
      while (at > 0 && before(entry, leaders[at - 1]!)) at -= 1;
      leaders.splice(at, 0, entry);
      if (leaders.length > count) leaders.pop();
    }
  }
  const labels = new Map<NdbinfoNode, Map<number, string>>();
  const labelOf = (n: NdbinfoNode, thrNo: number): string | undefined => {
    let byThread = labels.get(n);
    if (!byThread) labels.set(n, (byThread = new Map(threadLines(n.threads!.threads.map((t) => ({ nodeId: n.nodeId, thrNo: t.thrNo, name: t.name }))).map((l) => [l.thrNo, l.label]))));
    return byThread.get(thrNo);
  };
  return leaders.map((l) => ({ nodeId: l.nodeId, thrNo: l.thrNo, label: labelOf(l.node, l.thrNo) ?? threadKind(l.name), busy: l.busy }));
}

/** "ldm 97 %": a node's hottest thread for its tile or card; null without current thread figures. */
export function hottestText(node: NdbinfoNode | undefined): string | null {
  const hot = node?.threads?.hottest;
  if (!hot || node.stale) return null;
  return `${threadKind(hot.name)} ${Math.round(hot.busy)} %`;
}

export const formatPercent = (value: number): string => `${Math.round(value)} %`;
