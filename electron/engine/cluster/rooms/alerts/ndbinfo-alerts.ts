import type { NdbinfoLink, NdbinfoLogFill } from '../../../../contract/schemas/ndbinfo.js';
import { levelWords } from '../../../../contract/page-safe/level-words.js';
import { LOG_FILL_LEVELS, MemoryLevels } from '../../../features/alerts/memory-levels.js';
import { nodeRanges } from '../../../features/runs/bottleneck.js';
import type { TrackerInput } from '../../tracker-input.js';
import type { AlertRoom } from './alert-room.js';
import { LeadAlerts } from './lead-alerts.js';
import type { NdbinfoRoom } from '../ndbinfo-room.js';
import type { Room } from '../room.js';

const LOGS = [
  ['redo', 'REDO'],
  ['undo', 'DD-UNDO'],
] as const;

/**
 * Alerts from the SQL source's figures: a data node's redo or undo log filling (its fullest part, at 80 and 90 %,
 * with memory's hysteresis; its words say the peak and the fill now once it moved) or about to be full at the rate it
 * fills (`LeadAlerts`; send buffers have a trend but no alert: their percent is of what the transporters allocated,
 * which grows on demand, not of a ceiling), and its transporters overloaded or slowed down (one alert per node,
 * naming the remote nodes; over when none is). Judged on the readings that carry them, after NdbinfoRoom applied them, so a replay
 * raises what live raised; a maintenance window silences them by kind like any other.
 */
export class NdbinfoAlerts implements Room {
  private readonly levels: MemoryLevels;
  private readonly lead: LeadAlerts;
  /** The highest fill seen while a node's log level is held, by node and log. */
  private readonly peaks = new Map<string, number>();

  constructor(
    private readonly ndbinfo: NdbinfoRoom,
    private readonly alerts: AlertRoom,
    holdMs?: number,
  ) {
    this.levels = new MemoryLevels(holdMs, LOG_FILL_LEVELS);
    this.lead = new LeadAlerts(alerts, holdMs);
  }

  input(input: Exclude<TrackerInput, { kind: 'event' }>): void {
    if (input.kind !== 'ndbinfo') return;
    if (input.sample.reading === 'logspaces') this.logs(input.t);
    else if (input.sample.reading === 'transporters') this.transporters(input.t);
  }

  private logs(at: number): void {
    for (const n of this.ndbinfo.nodeViews()) {
      if (n.stale) continue;
      for (const [name, type] of LOGS) this.logLevel(n.nodeId, name, n[name], type, at);
    }
  }

  private logLevel(nodeId: number, name: string, fill: NdbinfoLogFill | null, type: string, at: number): void {
    const percent = fill?.percent ?? 0;
    const subject = `${name} log`;
    this.lead.judge(nodeId, subject, percent, fill?.trend, at);
    const level = this.levels.update(`${nodeId}:${name}`, percent, at);
    const peakKey = `${nodeId}:${name}`;
    const peak = level ? Math.max(this.peaks.get(peakKey) ?? 0, percent) : percent;
    if (level) this.peaks.set(peakKey, peak);
    else this.peaks.delete(peakKey);
    for (const l of LOG_FILL_LEVELS) {
      const key = `${l.kind}:${nodeId}:${name}`;
      if (l !== level) {
        this.alerts.resolve(key, at);
        continue;
      }
      const figures = { subject, unit: 'full', mark: l.raiseAt, peak, now: percent };
      const part = fill && fill.parts > 1 ? `; its fullest part is ${type} log ${fill.logId} part ${fill.logPart} of ${fill.parts}` : '';
      const message = `Node ${nodeId}: ${levelWords(figures)}${part}`;
      this.alerts.raise(key, l.kind, l.severity, at, nodeId, message, undefined, figures);
      this.alerts.revise(key, message, undefined, figures);
    }
  }

  private transporters(at: number): void {
    const links = this.ndbinfo.linkView();
    if (!links || links.stale) return;
    const byNode = new Map<number, NdbinfoLink[]>();
    for (const l of links.links) byNode.set(l.nodeId, [...(byNode.get(l.nodeId) ?? []), l]);
    for (const [nodeId, links] of byNode) {
      const key = `transporter-overload:${nodeId}`;
      const overloaded = links.filter((l) => l.overloaded).map((l) => l.remoteNodeId);
      const slowed = links.filter((l) => l.slowdown && !l.overloaded).map((l) => l.remoteNodeId);
      if (overloaded.length === 0 && slowed.length === 0) {
        this.alerts.resolve(key, at);
        continue;
      }
      const parts = [
        ...(overloaded.length > 0 ? [`overloaded to node${overloaded.length > 1 ? 's' : ''} ${nodeRanges(overloaded)}`] : []),
        ...(slowed.length > 0 ? [`slowed down to node${slowed.length > 1 ? 's' : ''} ${nodeRanges(slowed)}`] : []),
      ];
      const message = `Node ${nodeId}: send buffers full, transporters ${parts.join(', ')}`;
      // One severity: an alert's level cannot change while it is active, and a link flips between the two states.
      this.alerts.raise(key, 'transporter-overload', 'warning', at, nodeId, message);
      this.alerts.revise(key, message);
    }
  }
}
