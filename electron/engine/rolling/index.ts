/**
 * The rolling-restart room: a pure planner and safety check, a pure executor driven by inputs, a conductor that
 * carries out its effects over ports, and the plan's store. The engine hosts a conductor per cluster by
 * implementing `ClusterPort` (and a `RollingSink`); the CLI uses `MgmClusterPort` and `PlanStore`.
 */
export { planRollingRestart, DEFAULT_LIMITS, type PlanOutcome, type PlanRequest } from './planner.js';
export { stepHazards, unhealthyGroups, type CheckMoment } from './safety.js';
export { initialMachine, step, type RollStep } from './executor.js';
export { RollingConductor, type ConductorOptions } from './conductor.js';
export { PlanStore, resumeAfterRestart, type LoadedRolling, type StoredRolling } from './plan-store.js';
export { clusterIdentity, type ClusterIdentity } from './cluster-identity.js';
export { planEta, type PlanEta, type EtaSource } from './eta.js';
export { MgmClusterPort, type MgmPortOptions } from './mgm-cluster-port.js';
export { readPlanInputs, type PlanInputs } from './mgm-plan-inputs.js';
export { declaringPort } from './declared-port.js';
export { duration, eventText, nodes } from './event-text.js';
export { PROGRESS_EVERY_MS } from './step-progress.js';
export { rollingRun, runMark } from './run-marks.js';
export type { ClusterPort, RestartOutcome, RollingListener, RollingSink } from './ports.js';
export type * from './types.js';
