/**
 * The state machine of a Link, pure: every input (a caller's open or close, the outcome of a dial or of a
 * session, a timer) goes through `step`, which returns the next state and the effects the Link must carry out.
 * It reads no clock and starts nothing itself, so a property test can drive it through every order of events.
 *
 * Each dial gets a new attempt number and every input about a dial carries it: whatever arrives about an
 * attempt that is no longer current (a setup that completes after its connection ended, a timer armed before
 * a loss, an end after a close) changes nothing, and a late `ready` only gets its connection dropped. A dial's
 * phase covers TCP connect, any transport upgrade and the session setup; it ends in `ready`, `failed` or `ended`.
 *
 *   idle ──open──► dialing ──ready──► up ──stable──► up (backoff reset)
 *                   │  ▲               │ ended: stable → dialing at once, else → waiting; no reconnect → idle(lost)
 *          failed/  │  └──retry── waiting ◄─┘
 *          ended ───┴► first pass: idle; reconnecting: waiting; permanent: closed
 *   waiting ──now──► dialing (a server is known to be back: skip the rest of the backoff)
 *   any ──close──► closed (absorbing)
 */
export type LinkPhase =
  | { kind: 'idle'; lost: boolean }
  | { kind: 'dialing'; attempt: number; reconnecting: boolean }
  | { kind: 'up'; attempt: number; stable: boolean }
  /** A retry timer runs under `attempt`; `afterLoss`: the next dial starts after the server just lost. */
  | { kind: 'waiting'; attempt: number; afterLoss: boolean }
  | { kind: 'closed' };

export type LinkInput =
  | { type: 'open' }
  | { type: 'ready'; attempt: number }
  | { type: 'failed'; attempt: number; permanent: boolean }
  /** The attempt's connection ended: closed by the server, a socket error, a request timeout, bad bytes. */
  | { type: 'ended'; attempt: number }
  | { type: 'stable'; attempt: number }
  | { type: 'retry'; attempt: number }
  /** A server is known to be up again (the other link of the cluster just connected): retry without waiting. */
  | { type: 'now' }
  | { type: 'close' };

export type LinkEffect =
  | { type: 'dial'; attempt: number; afterLoss: boolean }
  /** Give up on this attempt: abort its dial, or close its connection. */
  | { type: 'drop'; attempt: number }
  /** The session is usable: announce it. */
  | { type: 'session'; attempt: number }
  | { type: 'arm-stable'; attempt: number }
  /** Wait the backoff's next delay, then input `retry` with this attempt. */
  | { type: 'arm-retry'; attempt: number }
  | { type: 'reset-backoff' };

export interface LinkMachine {
  readonly phase: LinkPhase;
  /** Number the next dial or retry timer gets. */
  readonly next: number;
  readonly reconnect: boolean;
}

export interface Step {
  machine: LinkMachine;
  effects: LinkEffect[];
}

export function initialMachine(reconnect: boolean): LinkMachine {
  return { phase: { kind: 'idle', lost: false }, next: 1, reconnect };
}

const stay = (machine: LinkMachine, effects: LinkEffect[] = []): Step => ({ machine, effects });

function to(m: LinkMachine, phase: LinkPhase, effects: LinkEffect[], uses = 0): Step {
  return { machine: { ...m, phase, next: m.next + uses }, effects };
}

function dial(m: LinkMachine, reconnecting: boolean, afterLoss: boolean): Step {
  return to(m, { kind: 'dialing', attempt: m.next, reconnecting }, [{ type: 'dial', attempt: m.next, afterLoss }], 1);
}

function wait(m: LinkMachine, afterLoss: boolean): Step {
  return to(m, { kind: 'waiting', attempt: m.next, afterLoss }, [{ type: 'arm-retry', attempt: m.next }], 1);
}

const current = (phase: LinkPhase, attempt: number): boolean => 'attempt' in phase && phase.attempt === attempt;

/** A dial that did not end in a session: the first pass reports it, a reconnect loop waits and tries again. */
function dialFailed(m: LinkMachine, phase: Extract<LinkPhase, { kind: 'dialing' }>, permanent: boolean): Step {
  if (permanent) return to(m, { kind: 'closed' }, []);
  return phase.reconnecting ? wait(m, false) : to(m, { kind: 'idle', lost: false }, []);
}

/** A session that was up ended. Only one that stayed up has earned an immediate retry (the backoff was reset). */
function sessionLost(m: LinkMachine, phase: Extract<LinkPhase, { kind: 'up' }>): Step {
  if (!m.reconnect) return to(m, { kind: 'idle', lost: true }, []);
  return phase.stable ? dial(m, true, true) : wait(m, true);
}

export function step(m: LinkMachine, input: LinkInput): Step {
  const { phase } = m;
  if (phase.kind === 'closed') return stay(m, input.type === 'ready' ? [{ type: 'drop', attempt: input.attempt }] : []);
  switch (input.type) {
    case 'open':
      return phase.kind === 'idle' ? dial(m, false, false) : stay(m);
    case 'close':
      return to(m, { kind: 'closed' }, phase.kind === 'dialing' || phase.kind === 'up' ? [{ type: 'drop', attempt: phase.attempt }] : []);
    case 'ready':
      if (phase.kind !== 'dialing' || !current(phase, input.attempt)) return stay(m, [{ type: 'drop', attempt: input.attempt }]);
      return to(m, { kind: 'up', attempt: input.attempt, stable: false }, [
        { type: 'session', attempt: input.attempt },
        { type: 'arm-stable', attempt: input.attempt },
      ]);
    case 'failed':
      return phase.kind === 'dialing' && current(phase, input.attempt) ? dialFailed(m, phase, input.permanent) : stay(m);
    case 'ended':
      if (!current(phase, input.attempt)) return stay(m);
      if (phase.kind === 'dialing') return dialFailed(m, phase, false);
      return phase.kind === 'up' ? sessionLost(m, phase) : stay(m);
    case 'stable':
      if (phase.kind !== 'up' || !current(phase, input.attempt) || phase.stable) return stay(m);
      return to(m, { ...phase, stable: true }, [{ type: 'reset-backoff' }]);
    case 'retry':
      return phase.kind === 'waiting' && current(phase, input.attempt) ? dial(m, true, phase.afterLoss) : stay(m);
    case 'now':
      return phase.kind === 'waiting' ? dial(m, true, phase.afterLoss) : stay(m);
  }
}
