import type { NodeView } from '../../../contract/schemas/node.js';
import type { NodeRestart, RollingRestart } from '../../../contract/schemas/rolling-restart.js';
import { gapSpan, stepSpan } from '../../features/rolling/plan/eta.js';
import { isUp } from '../node-status.js';
import type { Room, StatusChange } from './room.js';

/** Restarts closer together than this belong to the same rolling restart. */
export const ROUND_GAP_MS = 10 * 60_000;

interface Round {
  source: RollingRestart['source'];
  startedAt: number;
  /** In the order the nodes went down. */
  restarts: NodeRestart[];
}

/**
 * The rolling restart under way, as the engine saw it: every data node leaving the up state opens a restart, its
 * return closes it. A round ends after ROUND_GAP_MS without a node down, or when a node it already restarted goes
 * down again (the operator's loop came round: a new round, not "7 done, 0 to go" forever). Kept from status changes,
 * not from the timeline, so no page's window can cut it short.
 */
export class RollingRestartRoom implements Room {
  private round: Round | null = null;

  status({ nodeId, type, previous, status, at }: StatusChange): void {
    if (type !== 'NDB') return;
    const wentDown = !isUp(status) && (previous === null || isUp(previous));
    if (wentDown) this.down(nodeId, at, previous === null);
    else if (previous !== null && !isUp(previous) && isUp(status)) {
      const open = this.round?.restarts.find((r) => r.nodeId === nodeId && r.to === null);
      if (open) open.to = at;
    }
  }

  forget(nodeId: number): void {
    const round = this.round;
    if (round) round.restarts = round.restarts.filter((r) => r.nodeId !== nodeId || r.to !== null);
  }

  /** The round as of `now`, over the data nodes' current views (their status and safe-to-stop verdicts). */
  view(dataNodes: readonly NodeView[], now: number): RollingRestart | null {
    const round = this.round;
    if (!round || round.restarts.length === 0) return null;
    const finished = round.restarts.filter((r) => r.to !== null);
    const lastEnd = Math.max(round.startedAt, ...finished.map((r) => r.to ?? 0));
    const running = finished.length < round.restarts.length;
    if (!running && now - lastEnd >= ROUND_GAP_MS) return null;
    const touched = new Set(round.restarts.map((r) => r.nodeId));
    const inProgress = dataNodes.filter((n) => !isUp(n.status)).map((n) => n.nodeId);
    const down = new Set(inProgress);
    const done = [...new Set(finished.map((r) => r.nodeId))].filter((id) => !down.has(id)).sort((a, b) => a - b);
    const remaining = dataNodes.filter((n) => isUp(n.status) && !touched.has(n.nodeId));
    const complete = inProgress.length === 0 && remaining.length === 0;
    const eta = complete ? null : roundEta(round.restarts, remaining.length, now);
    return {
      source: round.source,
      startedAt: round.startedAt,
      restarts: round.restarts.map((r) => ({ ...r })),
      done,
      inProgress,
      remaining: remaining.map((n) => n.nodeId),
      next: inProgress.length > 0 ? null : (remaining.find((n) => n.safeToStop === true)?.nodeId ?? null),
      complete,
      paceMs: eta?.paceMs ?? null,
      etaAt: eta?.at ?? null,
      etaRange: eta?.range ?? null,
      etaBasis: eta?.basis ?? 0,
    };
  }

  private down(nodeId: number, at: number, underWayAtConnect: boolean): void {
    let round = this.round;
    const quiet = round !== null && round.restarts.every((r) => r.to !== null && at - r.to >= ROUND_GAP_MS);
    if (!round || quiet || round.restarts.some((r) => r.nodeId === nodeId)) {
      round = { source: 'observed', startedAt: at, restarts: [] };
      this.round = round;
    }
    round.restarts.push(underWayAtConnect ? { nodeId, from: at, to: null, underWayAtConnect } : { nodeId, from: at, to: null });
  }
}

/**
 * When the round should be over: each node's restart with the time to the next one's (the operator's checks and
 * pauses count), from restarts seen whole only (one under way when ndbtop connected is seen from its middle, so
 * neither its length nor the time from it is a baseline). A range, widened while few are timed (`stepSpan`).
 */
function roundEta(restarts: readonly NodeRestart[], remaining: number, now: number): { at: number; range: { from: number; to: number }; paceMs: number; basis: number } | null {
  const whole = restarts.filter((r) => r.to !== null && !r.underWayAtConnect);
  const cycles = restarts.slice(1).flatMap((r, i) => {
    const before = restarts[i];
    return before && before.to !== null && !before.underWayAtConnect ? [r.from - before.from] : [];
  });
  const restart = stepSpan(whole.map((r) => (r.to ?? 0) - r.from));
  if (!restart) return null;
  // Until a next restart began after a whole one, the time between them is unknown: up to a quarter restart more.
  const cycle = stepSpan(cycles) ?? (() => {
    const gap = gapSpan({ measured: [], pauseMs: 0 }, restart.span);
    return { likelyMs: restart.likelyMs + gap.likelyMs, span: { lowMs: restart.span.lowMs + gap.span.lowMs, highMs: restart.span.highMs + gap.span.highMs } };
  })();
  const open = restarts.some((r) => r.to === null);
  const lastFrom = restarts.at(-1)?.from ?? now;
  const finish = (k: 'lowMs' | 'highMs' | 'likelyMs'): number => {
    const c = k === 'likelyMs' ? cycle.likelyMs : cycle.span[k];
    const r = k === 'likelyMs' ? restart.likelyMs : restart.span[k];
    // The node down now ends a restart after it went down; the next one starts a cycle after that one did.
    const currentEnd = Math.max(now, lastFrom + r);
    const nextStart = open ? currentEnd + Math.max(0, c - r) : Math.max(now, lastFrom + c);
    return Math.round(remaining === 0 ? currentEnd : nextStart + (remaining - 1) * c + r);
  };
  return { at: finish('likelyMs'), range: { from: finish('lowMs'), to: finish('highMs') }, paceMs: cycle.likelyMs, basis: whole.length };
}
