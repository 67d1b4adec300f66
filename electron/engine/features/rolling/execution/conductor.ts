import { PollLoop } from '../../../cluster/poll-loop.js';
import { step } from './executor.js';
import type { ClusterPort, RestartOutcome, RollingListener, RollingSink } from '../ports/ports.js';
import type { RollInput, RollMachine, RollPhase } from '../types.js';

export interface ConductorOptions {
  port: ClusterPort;
  sink?: RollingSink;
  /** Step durations of earlier plans, oldest first. */
  history?: readonly number[];
  pollIntervalMs: number;
  now?: () => number;
}

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

  constructor(
    machine: RollMachine,
    private readonly options: ConductorOptions,
  ) {
    this.current = machine;
    this.history = [...(options.history ?? [])];
    this.now = options.now ?? Date.now;
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
          for (const l of this.listeners) l(e.event, this.current);
          break;
        case 'observe':
          if (this.polling) this.poll.trigger();
          break;
        case 'restart':
          void this.options.port.restart(e.nodes).then((outcome) => this.input(replyInput(outcome, e.attempt, this.now())));
          break;
      }
    }
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
