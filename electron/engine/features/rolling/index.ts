/**
 * The rolling-restart room: a pure planner and safety check, a pure executor driven by inputs, a conductor that
 * carries out its effects over ports, and the plan's store. The engine hosts a conductor per cluster by
 * implementing `ClusterPort` (and a `RollingSink`); the CLI uses `MgmClusterPort` and `PlanStore`.
 */
export { planRollingRestart, DEFAULT_LIMITS, type PlanOutcome, type PlanRequest } from './plan/planner.js';
export { stepHazards, unhealthyGroups, type CheckMoment } from './plan/safety.js';
export { checksOf, DEFAULT_CHECKS, ndbChecks } from './plan/ndb-checks.js';
export { initialMachine, step, type RollStep } from './execution/executor.js';
export { RollingConductor, type ConductorOptions } from './execution/conductor.js';
export { PlanStore, resumeAfterRestart, type LoadedRolling, type StoredRolling } from './plan/plan-store.js';
export { clusterIdentity, type ClusterIdentity } from './cluster-identity.js';
export { planEta, type PlanEta, type EtaSource } from './plan/eta.js';
export { MgmClusterPort, type MgmPortOptions } from './ports/mgm-cluster-port.js';
export { readPlanInputs, type PlanInputs } from './ports/mgm-plan-inputs.js';
export { declaringPort } from './ports/declared-port.js';
export { duration, eventText, nodes } from './execution/event-text.js';
export { PROGRESS_EVERY_MS } from './execution/step-progress.js';
export { rollingRun, runMark } from './execution/run-marks.js';
export type { ClusterPort, RestartOutcome, RollingListener, RollingSink } from './ports/ports.js';
export type * from './types.js';
