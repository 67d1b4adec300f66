import type { Observation, RollEvent, RollMachine } from '../types.js';

/** What became of one `restart node v2`. `refused` covers a request that was never sent (no session could be had). */
export type RestartOutcome = { kind: 'ok' } | { kind: 'refused'; text: string } | { kind: 'lost'; error: string };

/**
 * How long a restart's reply is waited for: the step's deadline, not the protocol's 5 minutes (spec §4.13), and
 * `signal` gives it up sooner once the step is over without it. A reply given up ends its session (`lost`).
 */
export interface RestartBounds {
  timeoutMs: number;
  signal: AbortSignal;
}

/**
 * The cluster as the conductor needs it. The CLI implements it over MgmClient (`mgm-cluster-port.ts`); the engine
 * implements it over its monitor (its polls, alert book and, later, ndbinfo) without this room knowing its insides.
 */
export interface ClusterPort {
  /** The data nodes now. Never rejects: a failure is an observation with `connected: false`. */
  observe(): Promise<Observation>;
  /** A normal restart of the nodes (no initial, no nostart, no abort, never force), on a session of its own. */
  restart(nodeIds: readonly number[], bounds: RestartBounds): Promise<RestartOutcome>;
}

/** Where the plan in progress is written (every `persist` effect), with the step durations for the next ETA. */
export interface RollingSink {
  persist(machine: RollMachine, history: readonly number[]): void;
}

/** Who hears about the plan: the CLI's printer, the engine's push hub. `machine` is the state after the event. */
export type RollingListener = (event: RollEvent, machine: RollMachine) => void;
