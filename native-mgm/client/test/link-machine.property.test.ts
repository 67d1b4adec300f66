import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { initialMachine, step, type LinkEffect, type LinkInput, type LinkMachine } from '../link-machine.js';

/**
 * The world around the machine, as the Link and the network can produce it: every dial it asked for may
 * succeed, fail or have its connection end, in any order (a setup that completes after its connection ended
 * included), sessions end at any time, armed timers fire late, callers open and close whenever they like.
 */
interface World {
  machine: LinkMachine;
  /** Dials asked for whose setup has not reported ready or failed. */
  pendingSetup: Set<number>;
  /** Connections not ended yet (an attempt may end before, during or after its setup). */
  connected: Set<number>;
  stableTimers: Set<number>;
  retryTimers: Set<number>;
}

type Choice = { kind: 'open' | 'close' | 'now' | 'ready' | 'failed' | 'ended' | 'stable' | 'retry'; pick: number; permanent: boolean };

const KINDS = ['open', 'close', 'now', 'ready', 'failed', 'ended', 'stable', 'retry'] as const;
const choice = fc.record({ kind: fc.constantFrom(...KINDS), pick: fc.nat(7), permanent: fc.boolean() }, { requiredKeys: ['kind', 'pick', 'permanent'] });
/** Weighted so that permanent failures (which end everything) do not cut most runs short. */
const choices = fc.array(choice.map((c) => ({ ...c, permanent: c.permanent && c.pick === 0 })), { minLength: 1, maxLength: 80 });

function nth(set: Set<number>, pick: number): number | undefined {
  const all = [...set];
  return all.length === 0 ? undefined : all[pick % all.length];
}

/** The input a choice becomes in this world, or null when nothing of that kind can happen now. */
function inputFor(w: World, c: Choice): LinkInput | null {
  switch (c.kind) {
    case 'open':
    case 'close':
    case 'now':
      return { type: c.kind };
    case 'ready':
    case 'failed': {
      const attempt = nth(w.pendingSetup, c.pick);
      if (attempt === undefined) return null;
      return c.kind === 'ready' ? { type: 'ready', attempt } : { type: 'failed', attempt, permanent: c.permanent };
    }
    case 'ended': {
      const attempt = nth(w.connected, c.pick);
      return attempt === undefined ? null : { type: 'ended', attempt };
    }
    case 'stable':
    case 'retry': {
      const attempt = nth(c.kind === 'stable' ? w.stableTimers : w.retryTimers, c.pick);
      return attempt === undefined ? null : { type: c.kind, attempt };
    }
  }
}

function deliver(w: World, input: LinkInput): void {
  if (input.type === 'ready' || input.type === 'failed') w.pendingSetup.delete(input.attempt);
  if (input.type === 'failed') w.connected.delete(input.attempt); // the Link destroys a connection whose setup failed
  if (input.type === 'ended') w.connected.delete(input.attempt);
  if (input.type === 'stable') w.stableTimers.delete(input.attempt);
  if (input.type === 'retry') w.retryTimers.delete(input.attempt);
}

function perform(w: World, effects: LinkEffect[]): void {
  for (const e of effects) {
    if (e.type === 'dial') {
      w.pendingSetup.add(e.attempt);
      w.connected.add(e.attempt);
    }
    if (e.type === 'drop') {
      w.pendingSetup.delete(e.attempt);
      w.connected.delete(e.attempt);
    }
    if (e.type === 'arm-stable') w.stableTimers.add(e.attempt);
    if (e.type === 'arm-retry') w.retryTimers.add(e.attempt);
  }
}

/** Every rule the Link relies on, checked after each step. */
function check(before: LinkMachine, input: LinkInput, after: LinkMachine, effects: LinkEffect[], w: World): void {
  const prev = before.phase;
  const now = after.phase;
  const dials = effects.filter((e) => e.type === 'dial');
  const where = `${JSON.stringify(prev)} + ${JSON.stringify(input)} → ${JSON.stringify(now)} ${JSON.stringify(effects)}`;

  assert.ok(dials.length <= 1, `two dials at once: ${where}`);
  // Never a second dial while another attempt is current (up or dialing) and not being given up.
  if (dials.length === 1 && (prev.kind === 'dialing' || prev.kind === 'up')) {
    assert.ok(input.type === 'ended' && input.attempt === prev.attempt, `dial while attempt ${prev.attempt} is current: ${where}`);
  }
  // What may start a dial: a caller's open of an idle link, a retry timer or a hint that a server is back while
  // waiting, or the loss of a session that stayed up. Never the loss of a session that did not.
  for (const _ of dials) {
    const lostStable = input.type === 'ended' && prev.kind === 'up' && prev.stable;
    const woken = (input.type === 'retry' || input.type === 'now') && prev.kind === 'waiting';
    const allowed = (input.type === 'open' && prev.kind === 'idle') || woken || lostStable;
    assert.ok(allowed, `dial not earned (tight loop): ${where}`);
    if (!after.reconnect) assert.equal(input.type, 'open', `a link without reconnect dialled on its own: ${where}`);
  }
  if (effects.some((e) => e.type === 'reset-backoff')) {
    assert.ok(input.type === 'stable' && prev.kind === 'up' && prev.attempt === input.attempt, `backoff reset before the session stayed up: ${where}`);
  }
  if (prev.kind === 'closed') {
    assert.equal(now.kind, 'closed', `left closed: ${where}`);
    assert.ok(effects.every((e) => e.type === 'drop'), `effects after close: ${where}`);
  }
  // A late success of an attempt that is not current is dropped, never leaked or adopted.
  if (input.type === 'ready' && !(prev.kind === 'dialing' && prev.attempt === input.attempt)) {
    assert.ok(effects.some((e) => e.type === 'drop' && e.attempt === input.attempt), `late ready not dropped: ${where}`);
  }
  // An attempt stops being current only by its own end or failure, or with a drop that releases it.
  if ((prev.kind === 'dialing' || prev.kind === 'up') && !('attempt' in now && now.attempt === prev.attempt)) {
    const ownOutcome = (input.type === 'ended' || input.type === 'failed') && input.attempt === prev.attempt;
    assert.ok(ownOutcome || effects.some((e) => e.type === 'drop' && e.attempt === prev.attempt), `attempt ${prev.attempt} abandoned without a drop: ${where}`);
  }
  // Liveness: never stuck. Whatever the phase waits for is really pending in the world.
  if (now.kind === 'dialing') assert.ok(w.pendingSetup.has(now.attempt) && w.connected.has(now.attempt), `dialing with nothing in flight: ${where}`);
  if (now.kind === 'up') assert.ok(w.connected.has(now.attempt), `up on an ended connection: ${where}`);
  if (now.kind === 'waiting') assert.ok(w.retryTimers.has(now.attempt), `waiting with no retry armed: ${where}`);
  // A reconnecting link that had a session never goes idle: only closing stops it.
  if (after.reconnect && prev.kind === 'up' && now.kind === 'idle') assert.fail(`reconnecting link gave up: ${where}`);
  if (!after.reconnect && prev.kind === 'up' && input.type === 'ended' && input.attempt === prev.attempt) {
    assert.deepEqual(now, { kind: 'idle', lost: true }, `lost session without reconnect: ${where}`);
  }
}

function run(reconnect: boolean, script: Choice[]): void {
  const w: World = { machine: initialMachine(reconnect), pendingSetup: new Set(), connected: new Set(), stableTimers: new Set(), retryTimers: new Set() };
  for (const c of script) {
    const input = inputFor(w, c);
    if (input === null) continue;
    deliver(w, input);
    const before = w.machine;
    const { machine, effects } = step(before, input);
    perform(w, effects);
    w.machine = machine;
    check(before, input, machine, effects, w);
  }
}

test('link machine: every interleaving of connect/setup/end/error/timeout, with reconnect', () => {
  fc.assert(fc.property(choices, (script) => run(true, script)), { numRuns: 3000 });
});

test('link machine: every interleaving without reconnect (CLI, action sessions) never dials on its own', () => {
  fc.assert(fc.property(choices, (script) => run(false, script)), { numRuns: 2000 });
});

/** The two reported loops, step by step: a session that ends as its setup completes. */
test('link machine: a connection that ends while its setup reply is handed over waits the backoff, then dials again', () => {
  let m = initialMachine(true);
  const go = (input: LinkInput): LinkEffect[] => {
    const s = step(m, input);
    m = s.machine;
    return s.effects;
  };
  assert.deepEqual(go({ type: 'open' }), [{ type: 'dial', attempt: 1, afterLoss: false }]);
  assert.deepEqual(go({ type: 'ready', attempt: 1 }), [{ type: 'session', attempt: 1 }, { type: 'arm-stable', attempt: 1 }]);
  // Lost before it stayed up: no immediate redial.
  assert.deepEqual(go({ type: 'ended', attempt: 1 }), [{ type: 'arm-retry', attempt: 2 }]);
  assert.deepEqual(go({ type: 'retry', attempt: 2 }), [{ type: 'dial', attempt: 3, afterLoss: true }]);
  // The end arrives before the setup's success (same TCP segment): the dial failed; the late ready is dropped.
  assert.deepEqual(go({ type: 'ended', attempt: 3 }), [{ type: 'arm-retry', attempt: 4 }]);
  assert.deepEqual(go({ type: 'ready', attempt: 3 }), [{ type: 'drop', attempt: 3 }]);
  assert.equal(m.phase.kind, 'waiting');
  assert.deepEqual(go({ type: 'retry', attempt: 4 }), [{ type: 'dial', attempt: 5, afterLoss: false }]);
  go({ type: 'ready', attempt: 5 });
  assert.deepEqual(go({ type: 'stable', attempt: 5 }), [{ type: 'reset-backoff' }]);
  // A session that stayed up earns an immediate failover attempt.
  assert.deepEqual(go({ type: 'ended', attempt: 5 }), [{ type: 'dial', attempt: 6, afterLoss: true }]);
});
