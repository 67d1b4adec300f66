import type { NodeStatus } from '../../../contract/schemas/node.js';
import type { IncidentRestart } from '../../../contract/schemas/incidents.js';
import { isUp } from '../../cluster/node-status.js';

/** One start of a data node as ndbtop saw it: each start phase's seconds (spec §8.2: the phase last completed). */
interface Start {
  startedAt: number;
  phase: number;
  runningSince: number;
  phases: Array<{ name: string; secs: number }>;
  backAt: number | null;
  /** First seen already starting: its phases before ndbtop watched are missing, so it is no baseline. */
  partial: boolean;
}

/** How many finished starts per node are the baseline of its usual times. */
const KEEP = 10;

const phaseName = (phase: number): string => `start phase ${phase}`;
const secs = (ms: number): number => Math.round(Math.max(0, ms) / 100) / 10;
const mean = (values: readonly number[]): number | null => (values.length === 0 ? null : Math.round((values.reduce((s, v) => s + v, 0) / values.length) * 10) / 10);

/**
 * Every data node's starts, timed phase by phase from the status changes, and the ones it finished: the baseline an
 * incident's restart is set against ("usual": the mean of that node's earlier complete starts, planned or not).
 */
export class RestartLedger {
  private readonly current = new Map<number, Start>();
  private readonly finished = new Map<number, Start[]>();

  status(nodeId: number, previous: NodeStatus | null, status: NodeStatus, phase: number, at: number): void {
    let s = this.current.get(nodeId);
    if (isUp(status)) {
      if (s && s.backAt === null) this.finish(nodeId, s, at);
      return;
    }
    if (status !== 'STARTING') {
      // Down again before it was back: the next start is a new one.
      if (s && s.backAt === null && previous === 'STARTING') this.current.delete(nodeId);
      return;
    }
    if (!s || s.backAt !== null) {
      s = { startedAt: at, phase: 0, runningSince: at, phases: [], backAt: null, partial: previous === null };
      this.current.set(nodeId, s);
    }
    if (phase > s.phase) {
      if (!s.partial || s.phases.length > 0 || s.phase > 0) s.phases.push({ name: phaseName(phase), secs: secs(at - s.runningSince) });
      s.phase = phase;
      s.runningSince = at;
    }
  }

  forget(nodeId: number): void {
    this.current.delete(nodeId);
  }

  /** The node's start since `since` (the one after its fall), against its usual times; nulls while none began. */
  restartSince(nodeId: number, since: number): IncidentRestart {
    // The first start after the fall: a later one (the node fell again) is the next incident's.
    const starts = new Set([...(this.finished.get(nodeId) ?? []), ...[this.current.get(nodeId)].filter((x): x is Start => x !== undefined)]);
    const s = [...starts].filter((x) => x.startedAt >= since).sort((a, b) => a.startedAt - b.startedAt)[0];
    const earlier = (this.finished.get(nodeId) ?? []).filter((f) => f.backAt !== null && f.backAt <= since);
    const usualTotal = mean(earlier.map((f) => secs((f.backAt ?? f.startedAt) - f.startedAt)));
    const usualPhase = (name: string): number | null => mean(earlier.flatMap((f) => f.phases.filter((p) => p.name === name).map((p) => p.secs)));
    if (!s) return { startedAt: null, backAt: null, totalSecs: null, usualSecs: usualTotal, phases: [] };
    return {
      startedAt: s.startedAt,
      backAt: s.backAt,
      totalSecs: s.backAt === null ? null : secs(s.backAt - s.startedAt),
      usualSecs: usualTotal,
      phases: s.phases.map((p) => ({ name: p.name, secs: p.secs, usualSecs: usualPhase(p.name) })),
    };
  }

  /** When the node was last back STARTED from a start ndbtop saw, or null. */
  lastBack(nodeId: number): number | null {
    const backs = [this.current.get(nodeId)?.backAt, this.finished.get(nodeId)?.at(-1)?.backAt].filter((t): t is number => typeof t === 'number');
    return backs.length === 0 ? null : Math.max(...backs);
  }

  private finish(nodeId: number, s: Start, at: number): void {
    s.backAt = at;
    if (s.partial) return;
    const list = this.finished.get(nodeId) ?? [];
    list.push(s);
    if (list.length > KEEP) list.shift();
    this.finished.set(nodeId, list);
  }
}
