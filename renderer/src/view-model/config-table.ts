import type { ClusterConfigView, ConfigNodeView, ConfigParamInfo, ConfigValueView } from '../contract.js';
import { formatBytes, formatClock, formatNodeIds } from './format.js';

type NodeType = ConfigNodeView['type'];

/** One value and the nodes that have it ("nodes 1–72", or "each node" for a value that carries its node's id). */
export interface ConfigCell {
  nodeIds: number[];
  label: string;
  text: string;
  nonDefault: boolean;
}

export interface ConfigRow {
  name: string;
  /** The value, formatted, when every node of the section has the same one; null when they differ. */
  text: string | null;
  /** Raw value in the title (bytes, milliseconds as stored). */
  raw: string;
  /** Per value, only when the nodes differ. */
  cells: ConfigCell[] | null;
  defaultText: string | null;
  /** Some node's value differs from the server's default. */
  nonDefault: boolean;
}

export interface ConfigSection {
  type: NodeType;
  title: string;
  nodeIds: number[];
  rows: ConfigRow[];
}

export interface ConfigFilter {
  /** Case-insensitive, on the name or the shown value. */
  text: string;
  onlyNonDefault: boolean;
}

const TITLES: Record<NodeType, string> = { NDB: 'Data nodes [ndbd]', MGM: 'Management servers [ndb_mgmd]', API: 'API nodes [mysqld]' };
const ORDER: NodeType[] = ['NDB', 'MGM', 'API'];

/** A value as an operator reads it: bytes as MiB/GiB, times with their unit, booleans as Y/N. */
export function formatConfigValue(value: ConfigValueView, unit: ConfigParamInfo['unit']): string {
  if (typeof value === 'string') return value === '' ? '(empty)' : value;
  switch (unit) {
    case 'bytes':
      return value >= 1024 ? formatBytes(value) : `${value} B`;
    case 'bytes/s':
      return `${value >= 1024 ? formatBytes(value) : `${value} B`}/s`;
    case 'ms':
      return value >= 10_000 && value % 1000 === 0 ? `${value / 1000} s` : `${value} ms`;
    case 's':
      return `${value} s`;
    case 'us':
      return `${value} µs`;
    case 'bool':
      return value ? 'Y' : 'N';
    case '%':
      return `${value} %`;
    default:
      return String(value);
  }
}

function infoMap(view: ClusterConfigView): Map<string, ConfigParamInfo> {
  return new Map(view.paramInfo.map((p) => [p.name, p]));
}

function matches(row: ConfigRow, filter: ConfigFilter): boolean {
  if (filter.onlyNonDefault && !row.nonDefault) return false;
  const q = filter.text.trim().toLowerCase();
  if (q === '') return true;
  const texts = [row.name, row.text ?? '', row.raw, ...(row.cells ?? []).map((c) => c.text)];
  return texts.some((t) => t.toLowerCase().includes(q));
}

function rowFor(name: string, nodes: readonly ConfigNodeView[], type: NodeType, info: ConfigParamInfo | undefined): ConfigRow {
  const unit = info?.unit ?? null;
  const def = info?.defaults[type];
  const differs = (v: ConfigValueView | undefined): boolean => v !== undefined && def !== undefined && def !== null && v !== def;
  const values = nodes.map((n) => n.params[name]);
  const same = values.every((v) => v === values[0]);
  const first = values[0];
  return {
    name,
    text: same && first !== undefined ? formatConfigValue(first, unit) : null,
    raw: same && first !== undefined ? String(first) : 'varies',
    cells: same ? null : valueCells(nodes, values, unit, differs),
    defaultText: def === undefined || def === null ? null : formatConfigValue(def, unit),
    nonDefault: values.some(differs),
  };
}

/** The text with its node's id in it as `<id>`, when the id is there once (`/data/ndbd7` → `/data/ndbd<id>`). */
function idTemplate(text: string, nodeId: number): string | null {
  const parts = text.split(new RegExp(`(?<!\\d)${nodeId}(?!\\d)`));
  return parts.length === 2 ? parts.join('<id>') : null;
}

/**
 * The differing values of one parameter, each once with the nodes that have it: 144 data directories that differ
 * only by the node's id are one line, not 144.
 */
function valueCells(nodes: readonly ConfigNodeView[], values: readonly (ConfigValueView | undefined)[], unit: ConfigParamInfo['unit'], differs: (v: ConfigValueView | undefined) => boolean): ConfigCell[] {
  const texts = values.map((v) => (v === undefined ? '—' : formatConfigValue(v, unit)));
  const templates = nodes.map((n, i) => (typeof values[i] === 'string' ? idTemplate(texts[i] ?? '', n.nodeId) : null));
  if (nodes.length > 2 && templates.every((t) => t !== null && t === templates[0])) {
    return [{ nodeIds: nodes.map((n) => n.nodeId), label: 'each node', text: templates[0] ?? '', nonDefault: values.some(differs) }];
  }
  const byText = new Map<string, ConfigCell>();
  nodes.forEach((n, i) => {
    const text = texts[i] ?? '—';
    const cell = byText.get(text) ?? { nodeIds: [], label: '', text, nonDefault: false };
    cell.nodeIds.push(n.nodeId);
    cell.nonDefault ||= differs(values[i]);
    byText.set(text, cell);
  });
  return [...byText.values()].map((c) => ({ ...c, label: formatNodeIds(c.nodeIds) }));
}

/**
 * Alphabetical, but NDB's internal parameters (the `__` prefix: debug and upgrade switches nobody sets in
 * config.ini) after the ones an operator tunes, so they do not head every table.
 */
function byParamName(a: string, b: string): number {
  return Number(a.startsWith('__')) - Number(b.startsWith('__')) || a.localeCompare(b);
}

/** One table per node type: each parameter once, with its value when all nodes agree, else per node. */
export function configSections(view: ClusterConfigView, filter: ConfigFilter): ConfigSection[] {
  const info = infoMap(view);
  return ORDER.flatMap((type) => {
    const nodes = view.nodes.filter((n) => n.type === type);
    if (nodes.length === 0) return [];
    const names = [...new Set(nodes.flatMap((n) => Object.keys(n.params)))].sort(byParamName);
    const rows = names.map((name) => rowFor(name, nodes, type, info.get(name))).filter((r) => matches(r, filter));
    return [{ type, title: TITLES[type], nodeIds: nodes.map((n) => n.nodeId), rows }];
  });
}

/** Every parameter of one node. */
export function nodeConfigRows(view: ClusterConfigView, nodeId: number, filter: ConfigFilter): ConfigRow[] {
  const node = view.nodes.find((n) => n.nodeId === nodeId);
  if (!node) return [];
  const info = infoMap(view);
  return Object.keys(node.params)
    .sort(byParamName)
    .map((name) => rowFor(name, [node], node.type, info.get(name)))
    .filter((r) => matches(r, filter));
}

/** What changed at the last new generation, one line per parameter and value pair. */
export function changeLines(view: ClusterConfigView): { title: string; lines: string[] } | null {
  const c = view.lastChange;
  if (!c) return null;
  const info = infoMap(view);
  const grouped = new Map<string, number[]>();
  for (const ch of c.changes) {
    const unit = info.get(ch.param)?.unit ?? null;
    const show = (v: ConfigValueView | null): string => (v === null ? '(none)' : formatConfigValue(v, unit));
    const key = `${ch.param}: ${show(ch.before)} → ${show(ch.after)}`;
    grouped.set(key, [...(grouped.get(key) ?? []), ch.nodeId ?? 0]);
  }
  const lines = [...grouped].map(([what, ids]) => (ids.every((id) => id === 0) ? what : `${what} (${formatNodeIds(ids)})`));
  return { title: `Generation ${c.fromGeneration} → ${c.toGeneration} at ${formatClock(c.at)}`, lines: lines.length > 0 ? lines : ['no parameter changed'] };
}
