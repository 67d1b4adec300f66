import { baselineFor, phaseProgress, restartCompleted, type RestartTimes } from '../../../../contract/page-safe/restart-phases.js';
import type { ClusterSnapshot } from '../../../../contract/schemas/snapshot.js';
import { gapSpan, planEta, stepSpan, type PlanEta } from './eta.js';
import type { RollMachine } from '../types.js';

export interface HostedEta {
  eta: PlanEta;
  /** The likely finish, and the span it may fall in (the timings' spread once enough are timed); null while unknown. */
  finish: { at: number; from: number; to: number } | null;
}

const OVER = new Set(['halted', 'done', 'aborted']);

/** Each data node's latest completed restart as restart_info timed it (the one before, while a new one runs). */
function completedRestarts(snap: ClusterSnapshot): Map<number, RestartTimes> {
  const out = new Map<number, RestartTimes>();
  if (!snap.ndbinfo) return out;
  for (const n of snap.ndbinfoNodes ?? []) {
    const latest = n.restart && restartCompleted(n.restart) ? n.restart : n.previousRestart && restartCompleted(n.previousRestart) ? n.previousRestart : null;
    if (latest) out.set(n.nodeId, latest);
  }
  return out;
}

/**
 * Before ndbtop timed a step of its own: the restarts it saw complete (a step's nodes restart together, so a step
 * takes about one node's restart), oldest first.
 */
function observedRestarts(snap: ClusterSnapshot): number[] {
  return (snap.rollingRestart?.restarts ?? []).flatMap((r) => (r.to !== null && !r.underWayAtConnect ? [r.to - r.from] : []));
}

/** Seconds left of one restarting node by its phases and their baseline; null where ndbinfo cannot tell. */
function nodeSecondsLeft(nodeId: number, snap: ClusterSnapshot, roundNodes: readonly number[], completed: Map<number, RestartTimes>, now: number): number | null {
  const figures = snap.ndbinfoNodes?.find((n) => n.nodeId === nodeId);
  const restart = figures?.restart;
  if (!figures || !restart?.inProgress) return null;
  const others = roundNodes.map((id) => ({ nodeId: id, restart: completed.get(id) ?? null }));
  const { baselines, from } = baselineFor(nodeId, figures.previousRestart, others);
  const startedAt = snap.rollingRestart?.restarts.find((r) => r.nodeId === nodeId && r.to === null)?.from ?? null;
  return phaseProgress(restart, now, startedAt, baselines, from).remainingSecs;
}

/**
 * A step's length by restart_info: the slowest of its nodes' completed restarts (they run in parallel), for each step
 * whose nodes ndbinfo timed whole, in the plan's order.
 */
function ndbinfoSteps(m: RollMachine, completed: Map<number, RestartTimes>): number[] {
  return m.plan.steps.flatMap((nodes) => {
    const totals = nodes.map((id) => completed.get(id)?.totalSecs);
    return totals.every((t) => t !== undefined) ? [Math.max(...(totals as number[])) * 1000] : [];
  });
}

/** The time between steps as this plan measured it: from a step's last node STARTED to the next step's send. */
function measuredGaps(m: RollMachine): number[] {
  const sends = m.results.flatMap((r) => (r.outcome === 'restarted' && r.sentAt !== null && r.durationMs !== null ? [{ step: r.step, sentAt: r.sentAt, end: r.sentAt + r.durationMs }] : []));
  if (m.run && !m.results.some((r) => r.step === m.step)) sends.push({ step: m.step, sentAt: m.run.sentAt, end: Number.NaN });
  return sends.slice(1).flatMap((s, i) => {
    const before = sends[i];
    return before && before.step === s.step - 1 ? [Math.max(0, s.sentAt - before.end)] : [];
  });
}

/**
 * The plan's ETA as the engine shows it: a step's length from restart_info's completed restarts of the plan's
 * nodes where ndbinfo has them (else the steps timed whole, else the restarts observed whole), the running step's
 * time left from its nodes' phases against their baselines (else the step's span less the time it has run), then
 * the steps left and the time between them (measured in this plan, else the pause and the checks). A span, not one
 * instant, until enough is timed.
 */
export function hostedEta(m: RollMachine, snap: ClusterSnapshot, history: readonly number[], now: number): HostedEta {
  const completed = completedRestarts(snap);
  const byNdbinfo = ndbinfoSteps(m, completed);
  const seen = history.length > 0 ? history : observedRestarts(snap);
  const gaps = { measured: measuredGaps(m), pauseMs: m.plan.pauseMs };
  const eta = planEta(m.plan, seen, byNdbinfo, m.results.length, gaps);
  if (OVER.has(m.phase.kind)) return { eta, finish: null };
  const step = stepSpan(byNdbinfo.length > 0 ? byNdbinfo : seen);
  const running = m.run !== null && !m.results.some((r) => r.step === m.step);
  const later = m.plan.steps.length - m.results.length - (running ? 1 : 0);
  if (later > 0 && !step) return { eta, finish: null };
  let current: Span3 = NONE;
  if (running && m.run) {
    const run = m.run;
    const roundNodes = m.results.filter((r) => r.outcome === 'restarted').flatMap((r) => r.nodes);
    const elapsed = now - run.sentAt;
    const left = run.nodes.map((p): Span3 | null => {
      if (p.backAt !== null) return NONE;
      const byPhases = nodeSecondsLeft(p.nodeId, snap, roundNodes, completed, now);
      if (byPhases !== null) return { likely: byPhases * 1000, low: byPhases * 1000, high: byPhases * 1000 };
      return step ? { likely: Math.max(0, step.likelyMs - elapsed), low: Math.max(0, step.span.lowMs - elapsed), high: Math.max(0, step.span.highMs - elapsed) } : null;
    });
    if (left.some((l) => l === null)) return { eta, finish: null };
    current = slowest(left as Span3[]);
  }
  let before: Span3 = NONE;
  let rest: Span3 = NONE;
  if (later > 0 && step) {
    // The steps after this one with the gaps between them, and the gap (or what is left of the pause) before them.
    const after = planEta(m.plan, seen, byNdbinfo, m.plan.steps.length - later, gaps);
    rest = { likely: after.totalMs ?? 0, low: after.range?.lowMs ?? 0, high: after.range?.highMs ?? 0 };
    const gap = gapSpan(gaps, step.span);
    const pauseLeft = m.phase.kind === 'pausing' ? Math.max(0, m.phase.until - now) : null;
    if (pauseLeft !== null) before = { likely: pauseLeft + Math.max(0, gap.likelyMs - m.plan.pauseMs), low: pauseLeft, high: pauseLeft + Math.max(0, gap.span.highMs - m.plan.pauseMs) };
    else if (running) before = { likely: gap.likelyMs, low: gap.span.lowMs, high: gap.span.highMs };
  }
  const at = (k: keyof Span3): number => Math.round(now + current[k] + before[k] + rest[k]);
  return { eta, finish: { at: at('likely'), from: at('low'), to: at('high') } };
}

interface Span3 {
  likely: number;
  low: number;
  high: number;
}
const NONE: Span3 = { likely: 0, low: 0, high: 0 };
/** A step is as long as its slowest node. */
const slowest = (spans: readonly Span3[]): Span3 => ({ likely: Math.max(0, ...spans.map((l) => l.likely)), low: Math.max(0, ...spans.map((l) => l.low)), high: Math.max(0, ...spans.map((l) => l.high)) });
