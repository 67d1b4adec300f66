import { levelWords, type LevelFigures } from '../../../../contract/page-safe/level-words.js';
import type { Alert } from '../../../../contract/schemas/events.js';
import { MEMORY_LEVELS, MemoryLevels, type MemoryLevel } from '../../../features/alerts/memory-levels.js';
import { isClusterWide } from '../../../features/alerts/memory-spread.js';
import type { MemoryKind, MemoryTracker } from '../../memory.js';
import type { AlertRoom } from './alert-room.js';
import { LeadAlerts } from './lead-alerts.js';

/**
 * How long a node's crossing waits for every node's use from one moment before it is judged on what is known. The
 * monitor asks for a memory round at a crossing (`cluster-monitor.ts`), which normally answers within milliseconds;
 * this bounds the wait when it does not (a server not answering).
 */
export const JUDGE_WITHIN_MS = 3000;

interface Crossing {
  id: number;
  kind: MemoryKind;
  level: MemoryLevel;
}

/**
 * Memory alerts at the operator's granularity: a node's level has hysteresis (`MemoryLevels`); a crossing is one
 * node's alert when few nodes are near the mark, and one cluster-wide alert when many are (`isClusterWide`), raised
 * once, its words following how many nodes are at the mark and their use now, over once every node's level let go.
 * Other nodes' figures can be a refresh old when one node crosses, so a crossing that might be cluster-wide waits
 * for the next memory round (or JUDGE_WITHIN_MS) to be judged with every node's use of the same moment.
 */
export class MemoryAlerts {
  private readonly levels: MemoryLevels;
  private readonly lead: LeadAlerts;
  private readonly nodeLevels = new Map<string, MemoryLevel | null>();
  /** The highest use seen while each node's alert is active, by alert key. */
  private readonly peaks = new Map<string, number>();
  /** The highest use seen while each node's level is held (any level), by node and kind. */
  private readonly levelPeaks = new Map<string, number>();
  /** Active cluster-wide alerts, by key. */
  private readonly wide = new Set<string>();
  private readonly waiting = new Map<string, Crossing>();
  private waitingSince: number | null = null;

  constructor(
    private readonly alerts: AlertRoom,
    private readonly memory: MemoryTracker,
    private readonly replicas: () => number | null,
    holdMs: number | undefined,
  ) {
    this.levels = new MemoryLevels(holdMs);
    this.lead = new LeadAlerts(alerts, holdMs);
  }

  /** A node's figures of one kind were applied; in a round, crossings are judged when the round is done. */
  check(id: number, kind: MemoryKind, at: number, inRound: boolean): void {
    const use = this.memory.node(id)[kind];
    const percent = use?.percent ?? 0;
    // DataMemory is what inserts fill; index memory (a fixed hash index share before 8.0) is not forecast.
    if (kind === 'data') this.lead.judge(id, 'data memory', percent, use?.trend, at);
    const level = this.levels.update(`${id}:${kind}`, percent, at);
    this.nodeLevels.set(`${id}:${kind}`, level);
    if (level) this.levelPeaks.set(`${id}:${kind}`, Math.max(this.levelPeaks.get(`${id}:${kind}`) ?? 0, percent));
    else this.levelPeaks.delete(`${id}:${kind}`);
    for (const l of MEMORY_LEVELS) {
      const key = nodeKey(l, id, kind);
      if (l !== level) {
        // A crossing over before it was judged (a hold shorter than the wait, a round that never came) still
        // happened: it is raised on what is known, then over with the rest.
        if (this.waiting.has(key)) this.judge(at, true);
        this.alerts.resolve(key, at);
        this.peaks.delete(key);
        this.waiting.delete(key);
        continue;
      }
      this.peaks.set(key, Math.max(this.peaks.get(key) ?? 0, percent));
      if (this.alerts.isActive(key)) this.alerts.revise(key, this.nodeMessage(l, id, kind), undefined, this.nodeFigures(l, id, kind));
      else if (!this.wide.has(wideKey(l, kind))) {
        this.waiting.set(key, { id, kind, level: l });
        this.waitingSince ??= at;
      }
    }
    // A round's words are those of the whole round, not of the nodes it had gone through so far.
    if (inRound) return;
    this.followWide(kind, at);
    this.judge(at, false);
  }

  /** Every data node's figures of one moment are in: whatever waited is judged on them. */
  roundDone(at: number): void {
    this.followWide('data', at);
    this.followWide('index', at);
    this.judge(at, true);
  }

  settle(at: number): void {
    if (this.waitingSince !== null && at - this.waitingSince >= JUDGE_WITHIN_MS) this.judge(at, true);
  }

  /** `final`: judge with what is known; else only what is already decided (cluster-wide now, or never can be). */
  private judge(at: number, final: boolean): void {
    for (const [key, c] of this.waiting) {
      const wk = wideKey(c.level, c.kind);
      if (this.wide.has(wk)) {
        this.waiting.delete(key);
        continue;
      }
      const { near, of } = this.near(c.level, c.kind);
      if (isClusterWide(near, of, this.replicas())) {
        this.wide.add(wk);
        const { message, clusterWide } = this.wideWords(c.level, c.kind);
        this.alerts.raise(wk, c.level.kind, c.level.severity, at, null, message, clusterWide);
        this.waiting.delete(key);
      } else if (final || !isClusterWide(of, of, this.replicas())) {
        this.alerts.raise(key, c.level.kind, c.level.severity, at, c.id, this.nodeMessage(c.level, c.id, c.kind), undefined, this.nodeFigures(c.level, c.id, c.kind));
        this.waiting.delete(key);
      }
    }
    if (this.waiting.size === 0) this.waitingSince = null;
  }

  /** Nodes at the level or within its hysteresis band now, of all data nodes with figures of the kind. */
  private near(level: MemoryLevel, kind: MemoryKind): { near: number; of: number } {
    const figures = this.memory.figures(kind);
    const near = figures.filter(([id, use]) => this.heldAt(level, id, kind) || (!use.stale && use.percent >= level.clearBelow)).length;
    return { near, of: figures.length };
  }

  private heldAt(level: MemoryLevel, id: number, kind: MemoryKind): boolean {
    return (this.nodeLevels.get(`${id}:${kind}`)?.raiseAt ?? 0) >= level.raiseAt;
  }

  /** Cluster-wide alerts of a kind follow their nodes: revised, or over once no node's level holds them. */
  private followWide(kind: MemoryKind, at: number): void {
    for (const l of MEMORY_LEVELS) {
      const wk = wideKey(l, kind);
      if (!this.wide.has(wk)) continue;
      const { message, clusterWide } = this.wideWords(l, kind);
      if (clusterWide.nodeIds.length > 0) this.alerts.revise(wk, message, clusterWide);
      else {
        this.alerts.resolve(wk, at);
        this.wide.delete(wk);
      }
    }
  }

  /**
   * "Data memory ≥ 90 % used on 70 of 144 data nodes (now 88–91 %)"; once all are back under the mark while the
   * hysteresis holds them: "Data memory was ≥ 90 % used on 70 of 144 data nodes (peak 92 %), now 73–80 %".
   */
  private wideWords(level: MemoryLevel, kind: MemoryKind): { message: string; clusterWide: NonNullable<Alert['clusterWide']> } {
    const figures = this.memory.figures(kind);
    const nodeIds = figures.filter(([id]) => this.heldAt(level, id, kind)).map(([id]) => id).sort((a, b) => a - b);
    const current = figures.filter(([, use]) => !use.stale).map(([, use]) => use.percent);
    const atMark = current.filter((p) => p >= level.raiseAt).length;
    const peak = Math.max(0, ...nodeIds.map((id) => this.levelPeaks.get(`${id}:${kind}`) ?? 0));
    const range = current.length === 0 ? 'no current figures' : spread(current);
    const name = kind === 'data' ? 'Data' : 'Index';
    const of = `of ${figures.length} data nodes`;
    const message =
      atMark > 0
        ? `${name} memory ≥ ${level.raiseAt} % used on ${atMark} ${of} (now ${range})`
        : `${name} memory was ≥ ${level.raiseAt} % used on ${nodeIds.length} ${of} (peak ${Math.round(peak)} %), now ${range}`;
    return { message, clusterWide: { nodeIds, of: figures.length } };
  }

  /** A held alert's figures: its peak and the node's use now, so its words never state a use the tiles contradict. */
  private nodeFigures(level: MemoryLevel, id: number, kind: MemoryKind): LevelFigures {
    const percent = this.memory.node(id)[kind]?.percent ?? 0;
    const peak = this.peaks.get(nodeKey(level, id, kind)) ?? percent;
    return { subject: `${kind} memory`, unit: 'used', mark: level.raiseAt, peak, now: percent };
  }

  private nodeMessage(level: MemoryLevel, id: number, kind: MemoryKind): string {
    return `Node ${id}: ${levelWords(this.nodeFigures(level, id, kind))}`;
  }
}

function nodeKey(level: MemoryLevel, id: number, kind: MemoryKind): string {
  return `${level.kind}:${id}:${kind}`;
}

function wideKey(level: MemoryLevel, kind: MemoryKind): string {
  return `${level.kind}:cluster:${kind}`;
}

function spread(uses: readonly number[]): string {
  const lo = Math.round(Math.min(...uses));
  const hi = Math.round(Math.max(...uses));
  return lo === hi ? `${lo} %` : `${lo}–${hi} %`;
}
