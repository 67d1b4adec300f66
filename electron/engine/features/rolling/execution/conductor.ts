import { PollLoop } from '../../../cluster/poll-loop.js';
import { step } from './executor.js';
import type { ClusterPort, RestartOutcome, RollingListener, RollingSink } from '../ports/ports.js';
import { waitingFor } from './step-progress.js';
import type { Observation, RollEvent, RollInput, RollMachine, RollPhase } from '../types.js';

export interface ConductorOptions {
  port: ClusterPort;
  sink?: RollingSink;
  /** Step durations of earlier plans, oldest first. */
  history?: readonly number[];
  pollIntervalMs: number;
  /**
   * While a step runs or a pause lasts, say what the plan waits for (a `waiting` event) whenever this long has passed
   * without an event; absent, nothing is said between events (the engine's page shows the plan live instead).
   */
  progressEveryMs?: number;
  now?: () => number;
}

/** Phases in which the plan waits on the cluster (and so says what for). */
const WAITING = new Set<RollPhase['kind']>(['restarting', 'waiting', 'pausing']);

const SETTLED = new Set<RollPhase['kind']>(['halted', 'done', 'aborted']);

/**
 * Carries out the executor's effects: polls the status source (at once when asked), sends restarts, writes the
 * plan, and tells listeners. Every input goes through `input`, one at a time, so an operator's clicks, replies and
 * observations interleave only as whole steps of the machine.
 */
export class RollingConductor {
  private current: RollMachine;
  private history: number[];
  private readonly listeners = new Set<RollingListener>();
  private readonly poll: PollLoop;
  private readonly now: () => number;
  private polling = false;
  private closed = false;
  /** Restart requests still waiting for their reply, by attempt: given up once their step is over. */
  private readonly pending = new Map<number, AbortController>();
  /** When the listeners last heard anything. */
  private saidAt: number;

  constructor(
    machine: RollMachine,
    private readonly options: ConductorOptions,
  ) {
    this.current = machine;
    this.history = [...(options.history ?? [])];
    this.now = options.now ?? Date.now;
    this.saidAt = this.now();
    this.poll = new PollLoop(async () => {
      if (this.closed) return;
      const obs = await options.port.observe();
      if (!this.closed) this.input({ kind: 'observe', obs });
    }, options.pollIntervalMs);
  }

  get machine(): RollMachine {
    return this.current;
  }

  /** Step durations seen so far (for the ETA). */
  get durations(): readonly number[] {
    return this.history;
  }

  onEvent(listener: RollingListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Starts following the cluster (observations feed the machine from now on). */
  follow(): void {
    if (this.polling || this.closed) return;
    this.polling = true;
    this.poll.start();
  }

  input(input: RollInput): void {
    if (this.closed) return;
    const { machine, effects } = step(this.current, input);
    this.current = machine;
    for (const e of effects) {
      switch (e.kind) {
        case 'persist':
          this.options.sink?.persist(this.current, this.history);
          break;
        case 'emit':
          if (e.event.event === 'started') this.history.push(e.event.durationMs);
          this.tell(e.event);
          break;
        case 'observe':
          if (this.polling) this.poll.trigger();
          break;
        case 'restart':
          this.send(e.nodes, e.attempt);
          break;
      }
    }
    this.giveUpOverRequests();
    if (input.kind === 'observe') this.sayProgress(input.obs);
  }

  /** Resolves when the plan is halted, done or aborted (at once if it is). */
  settled(): Promise<RollMachine> {
    if (SETTLED.has(this.current.phase.kind)) return Promise.resolve(this.current);
    return new Promise((resolve) => {
      const off = this.onEvent((_, m) => {
        if (!SETTLED.has(m.phase.kind)) return;
        off();
        resolve(m);
      });
    });
  }

  close(): void {
    this.closed = true;
    this.poll.close();
    for (const request of this.pending.values()) request.abort(new Error('the rolling restart stopped following the cluster'));
    this.pending.clear();
  }

  private tell(event: RollEvent): void {
    this.saidAt = this.now();
    for (const l of this.listeners) l(event, this.current);
  }

  /** The reply is waited for until the step's deadline at most; the status decides the step meanwhile. */
  private send(nodes: readonly number[], attempt: number): void {
    const request = new AbortController();
    this.pending.set(attempt, request);
    void this.options.port.restart(nodes, { timeoutMs: this.current.plan.limits.stepMs, signal: request.signal }).then((outcome) => {
      this.pending.delete(attempt);
      this.input(replyInput(outcome, attempt, this.now()));
    });
  }

  /**
   * A request whose step is over (its nodes seen back without the reply, or the step skipped) is given up: its session
   * closes instead of staying open until the deadline. A halted step keeps its request: a resume still wants the reply.
   */
  private giveUpOverRequests(): void {
    for (const [attempt, request] of this.pending) {
      if (this.current.run?.attempt === attempt && this.current.run.step === this.current.step) continue;
      request.abort(new Error('the step is over without it'));
      this.pending.delete(attempt);
    }
  }

  private sayProgress(obs: Observation): void {
    const every = this.options.progressEveryMs;
    if (every === undefined || !WAITING.has(this.current.phase.kind) || this.now() - this.saidAt < every) return;
    const text = waitingFor(this.current, obs);
    if (text !== null) this.tell({ event: 'waiting', step: this.current.step + 1, text });
  }
}

function replyInput(outcome: RestartOutcome, attempt: number, at: number): RollInput {
  switch (outcome.kind) {
    case 'ok':
      return { kind: 'restart-ok', attempt, at };
    case 'refused':
      return { kind: 'restart-refused', attempt, at, text: outcome.text };
    case 'lost':
      return { kind: 'restart-lost', attempt, at, error: outcome.error };
  }
}
