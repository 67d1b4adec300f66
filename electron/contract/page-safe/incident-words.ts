import type { Incident, IncidentRestart } from '../schemas/incidents.js';
import type { IncidentFigure } from '../schemas/incidents.js';
import { formatBytes } from './backup-words.js';
import { formatDuration } from './format-duration.js';

/** How a surface writes a moment: the page local "2026-12-07 10:15:58", the terminal and reports their own. */
export type TimeWords = (at: number) => string;

/**
 * An incident's restart and subject in words, the same in the Incidents view, `ndbtop incidents` and run reports,
 * each writing the time as the rest of that surface does. zod-free and pure.
 */
export function restartWords(r: Omit<IncidentRestart, 'phases'>, time: TimeWords): string {
  const usual = r.usualSecs === null ? '' : ` (usual ${formatDuration(r.usualSecs * 1000)})`;
  if (r.startedAt === null) return 'not restarting (yet)';
  if (r.backAt === null) return `restarting since ${time(r.startedAt)}, not back yet${usual}`;
  return `back after ${formatDuration((r.totalSecs ?? 0) * 1000)}${usual}`;
}

/** "node 3", "nodes 2, 4". */
export function incidentNodes(i: Pick<Incident, 'nodeIds'>): string {
  return `${i.nodeIds.length === 1 ? 'node' : 'nodes'} ${i.nodeIds.join(', ')}`;
}

/** One line: when noticed, the nodes, the cause kind, its sentence, and how the restart went, both times written by `time`. */
export function incidentLine(i: Incident, time: TimeWords): string {
  const before = i.beganBeforeWatching ? ' [began before ndbtop was watching]' : '';
  return `${time(i.noticedAt)}  ${incidentNodes(i)}  ${i.cause.kind}  ${i.cause.text}; ${restartWords(i.restart, time)}${before}`;
}

/** One figure of the minute before with its unit ("6.5 %", "1.2 MiB", "0.5/s", "yes"), the same in evidence, timeline and table. */
export function figureValue(value: number, unit: IncidentFigure['unit']): string {
  const r = Math.round(value * 10) / 10;
  switch (unit) {
    case '%':
      return `${r} %`;
    case 'B':
      return formatBytes(value);
    case 'B/s':
      return `${r} B/s`;
    case '/s':
      return `${r}/s`;
    case 'flag':
      return value >= 1 ? 'yes' : 'no';
    case 'count':
      return String(r);
  }
}
