import type { NodeStatus, RestartProgress } from '../../contract/schemas/node.js';

type PhaseTiming = RestartProgress['phases'][number];

interface Progress {
  startedAt: number;
  phase: number;
  startType: number | null;
  completed: PhaseTiming[];
  /** When the phase now running began: the previous completion, or the start itself. */
  runningSince: number;
  /** First seen already starting: `startedAt` is when ndbtop first polled. */
  underWayAtConnect: boolean;
}

/** How many finished restarts the time-left estimate remembers. */
const HISTORY = 20;

/**
 * The running phase's number is only known when it completes (phases need not be contiguous, spec §8.2); until
 * then show the likely next one: 1..8 in order, then the event handover phase 101.
 */
function likelyNext(phase: number): number {
  return phase === 8 ? 101 : phase + 1;
}

/**
 * Start progress of each data node: the phase reached, when each phase began and how long it took, and an
 * estimate of what is left from earlier restarts of this cluster (same start type when there are such).
 */
export class RestartTracker {
  private readonly active = new Map<number, Progress>();
  private readonly finished: Array<{ startType: number | null; durationMs: number }> = [];

  /** Follows every status change; completions are noticed whether an event or a poll reports them first. */
  onStatus(nodeId: number, status: NodeStatus, phase: number, at: number, firstSeen = false): void {
    let progress = this.active.get(nodeId);
    if (status === 'STARTING') {
      if (!progress) {
        progress = { startedAt: at, phase: 0, startType: null, completed: [], runningSince: at, underWayAtConnect: firstSeen };
        this.active.set(nodeId, progress);
      }
      // Phases completed before ndbtop watched have no timing: only those it saw complete are listed.
      if (phase > progress.phase && firstSeen) progress.phase = phase;
      else if (phase > progress.phase) {
        progress.completed.push({ phase, startedAt: progress.runningSince, durationMs: Math.max(0, at - progress.runningSince) });
        progress.phase = phase;
        progress.runningSince = at;
      }
      return;
    }
    if (!progress) return;
    this.active.delete(nodeId);
    // A start seen only in part says nothing of how long one takes.
    if (status === 'STARTED' && !progress.underWayAtConnect) {
      this.finished.push({ startType: progress.startType, durationMs: Math.max(0, at - progress.startedAt) });
      if (this.finished.length > HISTORY) this.finished.shift();
    }
  }

  setStartType(nodeId: number, startType: number): void {
    const progress = this.active.get(nodeId);
    if (progress) progress.startType = startType;
  }

  view(nodeId: number, now: number): RestartProgress | null {
    const p = this.active.get(nodeId);
    if (!p) return null;
    const running: PhaseTiming = { phase: likelyNext(p.phase), startedAt: p.runningSince, durationMs: null };
    return {
      startedAt: p.startedAt,
      phase: p.phase,
      phases: [...p.completed, running],
      estimatedMsLeft: this.estimate(p, now),
      startType: p.startType,
      ...(p.underWayAtConnect ? { underWayAtConnect: true } : {}),
    };
  }

  /** The data nodes starting now, with when ndbtop saw each start begin. */
  *underWay(): IterableIterator<{ nodeId: number; startedAt: number; phase: number; usualMs: number | null }> {
    for (const [nodeId, p] of this.active) yield { nodeId, startedAt: p.startedAt, phase: p.phase, usualMs: this.usualMs(p.startType) };
  }

  /** How long a start usually takes here: the mean of the finished ones (of the same start type when there are such). */
  private usualMs(startType: number | null): number | null {
    const same = this.finished.filter((f) => f.startType === startType);
    const basis = same.length > 0 ? same : this.finished;
    if (basis.length === 0) return null;
    return basis.reduce((s, f) => s + f.durationMs, 0) / basis.length;
  }

  private estimate(p: Progress, now: number): number | null {
    const usual = this.usualMs(p.startType);
    return usual === null ? null : Math.max(0, Math.round(usual - (now - p.startedAt)));
  }
}
