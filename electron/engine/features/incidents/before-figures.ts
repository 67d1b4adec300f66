import type { Metric } from '../../../contract/schemas/history.js';
import type { IncidentFigure } from '../../../contract/schemas/incidents.js';
import type { ClusterHistory } from '../../facts/history/history.js';
import type { InsideFigure, InsideHistory } from '../../facts/ndbinfo/inside-history.js';

/** Where the figures of the minute before a fall are read: the histories the engine keeps anyway, and the last undo fill. */
export interface FigureSources {
  history: ClusterHistory;
  inside: InsideHistory;
  /** The node's fullest undo log part as last read (no history keeps it), or null. */
  undo: (nodeId: number) => { percent: number; at: number } | null;
}

type Unit = IncidentFigure['unit'];
type Source = IncidentFigure['source'];

const HISTORY_FIGURES: ReadonlyArray<{ metric: Metric; name: string; unit: Unit; source: Source }> = [
  { metric: 'hottestThread', name: 'hottest thread CPU', unit: '%', source: 'ndbinfo' },
  { metric: 'redoFill', name: 'redo log fill (fullest part)', unit: '%', source: 'ndbinfo' },
  { metric: 'dataMemory', name: 'DataMemory used', unit: '%', source: 'event' },
  { metric: 'indexMemory', name: 'IndexMemory used', unit: '%', source: 'event' },
];

const INSIDE: ReadonlyArray<{ figure: InsideFigure; name: string; unit: Unit }> = [
  { figure: 'main', name: 'main thread CPU', unit: '%' },
  { figure: 'ldm', name: 'ldm threads CPU', unit: '%' },
  { figure: 'tc', name: 'tc threads CPU', unit: '%' },
  { figure: 'recv', name: 'recv threads CPU', unit: '%' },
  { figure: 'send', name: 'send threads CPU', unit: '%' },
  { figure: 'sendBuffer', name: 'send buffer used', unit: '%' },
  { figure: 'overloaded', name: 'a link overloaded or slowed down', unit: 'flag' },
  { figure: 'ioLag', name: 'redo I/O lag slowdowns', unit: '/s' },
];

/** Last and peak of one series, or null when it has no value. */
function summary(at: readonly number[], values: ReadonlyArray<number | null>): { last: number; peak: number; at: number } | null {
  let out: { last: number; peak: number; at: number } | null = null;
  values.forEach((v, i) => {
    if (v === null || !Number.isFinite(v)) return;
    out = { last: v, peak: Math.max(out?.peak ?? v, v), at: at[i] ?? 0 };
  });
  return out;
}

/** Each figure the engine kept of `nodeId` between `from` and `to`: its last value and its peak. */
export function beforeFigures(sources: FigureSources, nodeId: number, from: number, to: number): IncidentFigure[] {
  const out: IncidentFigure[] = [];
  const series = sources.history.query({ fromMs: from, toMs: to, metrics: HISTORY_FIGURES.map((f) => f.metric), nodeIds: [nodeId] });
  for (const f of HISTORY_FIGURES) {
    const s = series.series.find((x) => x.nodeId === nodeId && x.metric === f.metric);
    const sum = s && summary(series.at, s.values);
    if (sum) out.push({ nodeId, name: f.name, unit: f.unit, source: f.source, ...sum });
  }
  const window = sources.inside.window(from, to);
  const inside = window.nodes.get(nodeId);
  for (const f of INSIDE) {
    const sum = inside && summary(window.at, inside[f.figure]);
    if (sum) out.push({ nodeId, name: f.name, unit: f.unit, source: 'ndbinfo', ...sum });
  }
  const undo = sources.undo(nodeId);
  if (undo && undo.at >= from && undo.at <= to) out.push({ nodeId, name: 'undo log fill (fullest part)', unit: '%', source: 'ndbinfo', last: undo.percent, peak: undo.percent, at: undo.at });
  return out;
}
