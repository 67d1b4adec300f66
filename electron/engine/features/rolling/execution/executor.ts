import { nodes } from './event-text.js';
import { stepHazards, unhealthyGroups } from '../plan/safety.js';
import { ndbChecks } from '../plan/ndb-checks.js';
import { followRun, runBack, runOverdue, startProgress } from './step-progress.js';
import type { HaltCode, Observation, RollEffect, RollEvent, RollInput, RollingPlan, RollMachine, RollPhase, StepRun } from '../types.js';

/**
 * The rolling restart's executor, pure: every input (an observation of the cluster, a restart's reply, an
 * operator command) goes through `step`, which returns the next state and the effects the conductor carries out.
 * It reads no clock (times come with the inputs), so a property test can drive it through any interleaving.
 *
 *   idle ──start──► checking ──observe: safe──► restarting ──ok/lost──► waiting ──back──► pausing ──time──► checking …
 *                      │ unsafe                  │ refused                 │ overdue / other node down        └► done
 *                      └────────────► halted ◄───┴─────────────────────────┘
 *   halted ──resume──► checking (nothing sent yet, or refused) | waiting (a restart went out: never sent again)
 *   halted ──skip──► next step;   any ──abort──► aborted;   pause: halt now, or once the running step is back
 *
 * A restart goes out only from an observation that passed the check at that very input, and never to a node
 * already sent one in this plan, unless the server refused it and the operator resumed.
 */
export interface RollStep {
  machine: RollMachine;
  effects: RollEffect[];
}

export function initialMachine(plan: RollingPlan): RollMachine {
  return { plan, phase: { kind: 'idle' }, step: 0, run: null, sent: [], results: [], holdAfterStep: false, nextAttempt: 1 };
}

const stepNodes = (m: RollMachine): number[] => m.plan.steps[m.step] ?? [];
const emit = (event: RollEvent): RollEffect => ({ kind: 'emit', event });
const PERSIST: RollEffect = { kind: 'persist' };

function to(m: RollMachine, phase: RollPhase, effects: RollEffect[], patch: Partial<RollMachine> = {}): RollStep {
  return { machine: { ...m, ...patch, phase }, effects };
}

export function halt(m: RollMachine, code: HaltCode, reason: string, patch: Partial<RollMachine> = {}): RollStep {
  const next = { ...m, ...patch };
  return to(next, { kind: 'halted', code, reason }, [PERSIST, emit({ event: 'halted', step: next.step + 1, nodes: stepNodes(next), code, reason })]);
}

/** Enter the step at `index`: wait for the next observation to check it, or finish. */
function enterStep(m: RollMachine, index: number, effects: RollEffect[]): RollStep {
  const next: RollMachine = { ...m, step: index, run: null, checkWait: null };
  if (index >= m.plan.steps.length) {
    const restarted = m.results.filter((r) => r.outcome === 'restarted').flatMap((r) => r.nodes);
    const skipped = m.results.filter((r) => r.outcome === 'skipped').flatMap((r) => r.nodes);
    return to(next, { kind: 'done' }, [...effects, PERSIST, emit({ event: 'done', restarted, skipped })]);
  }
  return to(next, { kind: 'checking' }, [...effects, PERSIST, emit({ event: 'step', step: index + 1, of: m.plan.steps.length, nodes: stepNodes(next) }), { kind: 'observe' }]);
}

/**
 * The check before a send, on this observation; the send itself when it passes. An NDB check that waits (a backup
 * running) keeps the step in `checking`, said once, and the next observation checks again: the plan goes on when it
 * clears.
 */
function checkAndSend(m: RollMachine, obs: Observation, effects: RollEffect[] = []): RollStep {
  const nodes = stepNodes(m);
  const twice = nodes.filter((id) => m.sent.includes(id));
  const checks = obs.connected ? ndbChecks(m.plan, nodes, obs) : [];
  const reasons = [
    ...stepHazards(m.plan, nodes, obs, 'before'),
    ...checks.filter((c) => c.verdict === 'halt').map((c) => c.text),
    ...(twice.length > 0 ? [`node ${twice.join(', ')} was already sent a restart in this plan: it is not sent again`] : []),
  ];
  if (reasons.length > 0) {
    const halted = halt(m, obs.connected ? 'unsafe' : 'unreachable', reasons.join('; '));
    return { machine: halted.machine, effects: [...effects, ...halted.effects] };
  }
  const waits = checks.filter((c) => c.verdict === 'wait');
  if (waits.length > 0) {
    // Said when something new is waited for (another backup counts); one of them clearing is no news.
    const keys = waits.map((c) => `${c.check}:${c.check === 'backup' ? c.figure : ''}`);
    const before = m.checkWait?.split(',') ?? [];
    const news = keys.filter((k) => !before.includes(k));
    const said = news.length === 0 ? [] : [PERSIST, emit({ event: 'waiting', step: m.step + 1, text: waits.map((c) => c.text).join('; ') })];
    return to(m, { kind: 'checking' }, [...effects, ...said], { checkWait: keys.join(',') });
  }
  const attempt = m.nextAttempt;
  const run: StepRun = { step: m.step, attempt, send: 'in-flight', sentAt: obs.at, answeredAt: null, lostError: null, nodes: startProgress(nodes, obs) };
  // Persisted before the send: an ndbtop killed right after it finds the step recorded as sent, never sends it again.
  const checked = checks.length > 0 ? [emit({ event: 'checked', step: m.step + 1, checks })] : [];
  return to(m, { kind: 'restarting', attempt }, [...effects, ...checked, PERSIST, { kind: 'restart', nodes, attempt }, emit({ event: 'restarting', step: m.step + 1, nodes })], {
    run,
    checkWait: null,
    sent: [...m.sent, ...nodes],
    nextAttempt: attempt + 1,
  });
}

/** The step's nodes are back: record it, then pause, halt (operator asked), go on, or finish. */
function stepBack(m: RollMachine, run: StepRun, obs: Observation): RollStep {
  const durationMs = Math.max(0, ...run.nodes.map((p) => (p.backAt ?? obs.at) - run.sentAt));
  const nodes = stepNodes(m);
  const done: RollMachine = { ...m, run, results: [...m.results, { step: m.step, nodes, outcome: 'restarted', durationMs, sentAt: run.sentAt }] };
  const started = emit({ event: 'started', step: m.step + 1, nodes, durationMs });
  const last = m.step + 1 >= m.plan.steps.length;
  if (m.holdAfterStep && !last) {
    const h = halt({ ...done, step: m.step + 1, run: null, holdAfterStep: false }, 'operator', `paused by the operator after step ${m.step + 1}`);
    return { machine: h.machine, effects: [started, ...h.effects] };
  }
  if (last || m.plan.pauseMs <= 0) return enterStep(done, m.step + 1, [started]);
  return to({ ...done, step: m.step + 1, run: null }, { kind: 'pausing', until: obs.at + m.plan.pauseMs }, [
    started,
    PERSIST,
    emit({ event: 'paused', step: m.step + 1, pauseMs: m.plan.pauseMs }),
  ]);
}

/** The status shows the step's restart done while its reply has not come: the step is done, said so, the reply given up. */
function backWithoutReply(m: RollMachine, run: StepRun, obs: Observation): RollStep {
  const text = `no reply to the restart came in ${Math.round((obs.at - run.sentAt) / 1000)} s, but ${nodes(run.nodes.map((p) => p.nodeId))} went down and ${run.nodes.length === 1 ? 'is' : 'are'} STARTED again: the step is done, its reply no longer waited for`;
  const done = stepBack(m, run, obs);
  return { machine: done.machine, effects: [emit({ event: 'note', step: m.step + 1, text }), ...done.effects] };
}

function observe(m: RollMachine, obs: Observation): RollStep {
  const run = m.run && m.run.step === m.step ? followRun(m.run, obs) : m.run;
  const cur: RollMachine = { ...m, run };
  switch (m.phase.kind) {
    case 'checking':
      return checkAndSend(cur, obs);
    case 'pausing': {
      const upcoming = stepNodes(cur);
      const trouble = stepHazards(m.plan, [], obs, 'pause');
      if (trouble.length > 0) return halt(cur, 'unsafe', trouble.join('; '));
      if (obs.at < m.phase.until) return to(cur, m.phase, []);
      return checkAndSend(cur, obs, [emit({ event: 'step', step: cur.step + 1, of: m.plan.steps.length, nodes: upcoming })]);
    }
    case 'restarting':
    case 'waiting': {
      if (!run) return to(cur, m.phase, []);
      const trouble = stepHazards(m.plan, stepNodes(cur), obs, 'during');
      if (trouble.length > 0) return halt(cur, 'unsafe', trouble.join('; '));
      const back = runBack(run, obs);
      const unhealthy = back ? unhealthyGroups(m.plan, stepNodes(cur), obs) : [];
      if (back && unhealthy.length === 0) return run.send === 'in-flight' ? backWithoutReply(cur, run, obs) : stepBack(cur, run, obs);
      const overdue = runOverdue(m.plan, run, obs, unhealthy);
      return overdue ? halt(cur, overdue.code, overdue.reason) : to(cur, m.phase, []);
    }
    default:
      return to(cur, m.phase, []);
  }
}

/** A reply about the current run's attempt; anything about an older attempt changes nothing. */
function reply(m: RollMachine, input: Extract<RollInput, { kind: 'restart-ok' | 'restart-refused' | 'restart-lost' }>): RollStep {
  const run = m.run;
  if (!run || run.attempt !== input.attempt || run.send !== 'in-flight' || m.phase.kind === 'done') return to(m, m.phase, []);
  const restarting = m.phase.kind === 'restarting';
  if (input.kind === 'restart-refused') {
    const refused: StepRun = { ...run, send: 'refused', answeredAt: input.at };
    const sent = m.sent.filter((id) => !run.nodes.some((p) => p.nodeId === id));
    const reason = `the management server refused to restart node ${run.nodes.map((p) => p.nodeId).join(', ')}: ${input.text}`;
    if (m.phase.kind === 'aborted') return to({ ...m, run: refused, sent }, m.phase, [PERSIST]);
    return halt(m, 'refused', m.phase.kind === 'halted' ? `${m.phase.reason}; ${reason}` : reason, { run: refused, sent });
  }
  const answered: StepRun =
    input.kind === 'restart-ok' ? { ...run, send: 'accepted', answeredAt: input.at } : { ...run, send: 'lost', answeredAt: input.at, lostError: input.error };
  const note: RollEffect[] =
    input.kind === 'restart-lost' ? [emit({ event: 'note', step: m.step + 1, text: `the reply to the restart was lost (${input.error}): watching the nodes, nothing is sent again` })] : [];
  return to({ ...m, run: answered }, restarting ? { kind: 'waiting' } : m.phase, [PERSIST, ...note]);
}

function operator(m: RollMachine, kind: 'start' | 'resume' | 'skip' | 'abort' | 'pause'): RollStep {
  const phase = m.phase.kind;
  switch (kind) {
    case 'start':
      return phase === 'idle' ? enterStep(m, 0, []) : to(m, m.phase, []);
    case 'abort': {
      if (phase === 'done' || phase === 'aborted') return to(m, m.phase, []);
      const inFlight = m.run && (m.run.send === 'in-flight' || m.run.send === 'accepted' || m.run.send === 'lost') && m.run.nodes.some((p) => p.backAt === null);
      const text = `aborted by the operator at step ${m.step + 1}${inFlight ? `; the restart of node ${m.run?.nodes.map((p) => p.nodeId).join(', ')} already sent goes on in the cluster` : ''}`;
      return to(m, { kind: 'aborted' }, [PERSIST, emit({ event: 'aborted', step: m.step + 1, text })]);
    }
    case 'pause':
      if (phase === 'checking' || phase === 'pausing') return halt(m, 'operator', 'paused by the operator');
      return phase === 'restarting' || phase === 'waiting' ? to(m, m.phase, [], { holdAfterStep: true }) : to(m, m.phase, []);
    case 'resume': {
      if (phase !== 'halted') return to(m, m.phase, []);
      const resumed = emit({ event: 'resumed', step: m.step + 1 });
      const run = m.run && m.run.step === m.step ? m.run : null;
      if (run && run.send !== 'refused') {
        // A restart went out for this step: wait for it again (restarted afresh on deadlines), never send it again.
        const fresh: StepRun = { ...run, sentAt: Math.max(run.sentAt, run.answeredAt ?? 0), nodes: run.nodes.map((p) => ({ ...p, notStartedSince: null })) };
        const phaseNext: RollPhase = run.send === 'in-flight' ? { kind: 'restarting', attempt: run.attempt } : { kind: 'waiting' };
        return to({ ...m, run: fresh, holdAfterStep: false }, phaseNext, [PERSIST, resumed, { kind: 'observe' }]);
      }
      return to({ ...m, run: null, holdAfterStep: false }, { kind: 'checking' }, [PERSIST, resumed, { kind: 'observe' }]);
    }
    case 'skip': {
      if (phase !== 'halted') return to(m, m.phase, []);
      const nodes = stepNodes(m);
      const skipped: RollMachine = { ...m, holdAfterStep: false, results: [...m.results, { step: m.step, nodes, outcome: 'skipped', durationMs: null, sentAt: null }] };
      return enterStep(skipped, m.step + 1, [emit({ event: 'skipped', step: m.step + 1, nodes })]);
    }
  }
}

export function step(m: RollMachine, input: RollInput): RollStep {
  if (m.phase.kind === 'done' || m.phase.kind === 'aborted') {
    return input.kind === 'restart-refused' || input.kind === 'restart-ok' || input.kind === 'restart-lost' ? reply(m, input) : to(m, m.phase, []);
  }
  switch (input.kind) {
    case 'observe':
      return observe(m, input.obs);
    case 'restart-ok':
    case 'restart-refused':
    case 'restart-lost':
      return reply(m, input);
    default:
      return operator(m, input.kind);
  }
}
