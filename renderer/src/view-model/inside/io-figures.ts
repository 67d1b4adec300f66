import type { NdbinfoDiskWrite, NdbinfoLink, NdbinfoLogFill, NdbinfoNode, NodeView } from '../../contract.js';

/** The alert marks of a log's fill: a warning at 80 %, critical at 90 % (the engine's log-fill alerts). */
export const FILL_MARKS = { warn: 80, bad: 90 } as const;

export type Tone = 'ok' | 'warn' | 'bad' | 'muted';

export function fillTone(fill: NdbinfoLogFill | null | undefined): Tone {
  const p = fill?.percent;
  if (p === null || p === undefined) return 'muted';
  return p >= FILL_MARKS.bad ? 'bad' : p >= FILL_MARKS.warn ? 'warn' : 'ok';
}

/** "3 of 4 parts": which part is the fullest, when there are several. */
export function partLabel(fill: NdbinfoLogFill): string {
  return fill.parts > 1 ? `log ${fill.logId} part ${fill.logPart} (of ${fill.parts})` : '';
}

export type LinkCell = Pick<NdbinfoLink, 'status' | 'sentPerSec' | 'receivedPerSec' | 'overloaded' | 'slowdown' | 'overloadCount' | 'slowdownCount'>;

export interface TransportMatrix {
  /** Data nodes, the rows: each counts its own side of every link. */
  rows: number[];
  /** Every remote node any row has a link to: data nodes first, then the others, by id. */
  columns: Array<{ nodeId: number; type: NodeView['type'] | null }>;
  cells: Map<string, LinkCell>;
}

/** Each node's type by id: all the matrix and the shares need of the nodes. */
export type NodeTypes = ReadonlyMap<number, NodeView['type']>;

/** The nodes' types as one string ("2:NDB,50:API"): a store selector that changes only when a type does, not with every push's rates. */
export function nodeTypesKey(nodes: ReadonlyMap<number, NodeView>): string {
  return [...nodes.values()].map((n) => `${n.nodeId}:${n.type}`).join(',');
}

export function nodeTypes(key: string): NodeTypes {
  return new Map(key ? key.split(',').map((part) => {
    const [id, type] = part.split(':');
    return [Number(id), type as NodeView['type']];
  }) : []);
}

export const cellKey = (from: number, to: number): string => `${from}>${to}`;

/** The node×node matrix of bytes/s each data node sends, with each link's overload and slowdown state. */
export function transportMatrix(links: readonly NdbinfoLink[], types: NodeTypes): TransportMatrix {
  const rows = [...new Set(links.map((l) => l.nodeId))].sort((a, b) => a - b);
  const dataFirst = (id: number): number => (types.get(id) === 'NDB' || rows.includes(id) ? 0 : 1);
  const remote = [...new Set(links.map((l) => l.remoteNodeId))].sort((a, b) => dataFirst(a) - dataFirst(b) || a - b);
  const cells = new Map<string, LinkCell>();
  for (const l of links) cells.set(cellKey(l.nodeId, l.remoteNodeId), l);
  return { rows, columns: remote.map((nodeId) => ({ nodeId, type: types.get(nodeId) ?? null })), cells };
}

/** A cell of the matrix in words: the focused or pointed-at link's figures for every reader. */
export function linkText(from: number, to: { nodeId: number; type: NodeView['type'] | null }, cell: LinkCell | undefined): string {
  const name = `node ${from} → node ${to.nodeId}${to.type ? ` (${to.type})` : ''}`;
  if (!cell) return `${name}: ${from === to.nodeId ? 'a node has no link to itself' : 'no link read'}`;
  if (cell.status !== 'CONNECTED') return `${name}: ${cell.status.toLowerCase()}`;
  const state = cell.overloaded ? 'overloaded' : cell.slowdown ? 'in slowdown' : 'neither overloaded nor slowed down';
  return `${name}: sends ${formatBytesPerSec(cell.sentPerSec)}, receives ${formatBytesPerSec(cell.receivedPerSec)}; ${state} now; overloaded ${cell.overloadCount}, slowed down ${cell.slowdownCount} times since the data node started`;
}

export function cellTone(cell: LinkCell | undefined): Tone {
  if (!cell) return 'muted';
  return cell.overloaded ? 'bad' : cell.slowdown ? 'warn' : 'ok';
}

export interface ApiShare {
  nodeId: number;
  /** Bytes/s between it and all data nodes, both ways. */
  bytesPerSec: number;
  /** Its part of all API traffic, 0–1. */
  share: number;
  /** Well under an even share while the others carry on: the one holding a benchmark back. */
  behind: boolean;
}

/** Under this part of an even share an API node stands out as behind the others. */
const BEHIND_SHARE = 0.6;

/**
 * Each API (SQL) node's share of the traffic with the data nodes. Behind a load balancer every SQL node should carry
 * about the same; one well under an even share is the one slowing the benchmark down.
 */
export function apiShares(links: readonly NdbinfoLink[], types: NodeTypes): ApiShare[] {
  const bytes = new Map<number, number>();
  for (const l of links) {
    // An API slot nothing is connected to is not a node holding anything back.
    if (types.get(l.remoteNodeId) !== 'API' || l.status !== 'CONNECTED') continue;
    bytes.set(l.remoteNodeId, (bytes.get(l.remoteNodeId) ?? 0) + (l.sentPerSec ?? 0) + (l.receivedPerSec ?? 0));
  }
  const total = [...bytes.values()].reduce((s, b) => s + b, 0);
  const even = bytes.size > 0 ? 1 / bytes.size : 0;
  return [...bytes]
    .sort(([a], [b]) => a - b)
    .map(([nodeId, b]) => {
      const share = total > 0 ? b / total : 0;
      return { nodeId, bytesPerSec: b, share, behind: bytes.size > 1 && total > 0 && share < even * BEHIND_SHARE };
    });
}

/** Data nodes' ndbinfo figures in node order. */
export function ioNodes(figures: ReadonlyMap<number, NdbinfoNode>): NdbinfoNode[] {
  return [...figures.values()].sort((a, b) => a.nodeId - b.nodeId);
}

export function formatBytesPerSec(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '–';
  if (v >= 1e9) return `${(v / 1e9).toFixed(1)} GB/s`;
  if (v >= 1e6) return `${(v / 1e6).toFixed(1)} MB/s`;
  if (v >= 1e3) return `${(v / 1e3).toFixed(1)} kB/s`;
  return `${Math.round(v)} B/s`;
}

/**
 * The redo written per second, "—" until a rate exists: the first reading of a node (and the first after it
 * restarted, when the engine has no earlier one to compare: `ioLagPerSec` null) covers no whole second of this
 * watch, and its 0 B/s beside hundreds of thousands of writes a second would be a figure nothing measured.
 */
export function redoWritten(w: Pick<NdbinfoDiskWrite, 'redoBytesPerSec' | 'ioLagPerSec'> | null | undefined): string {
  return !w || w.ioLagPerSec === null ? '—' : formatBytesPerSec(w.redoBytesPerSec);
}
