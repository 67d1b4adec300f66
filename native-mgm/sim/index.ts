/** The ndb_mgmd simulator: a real TCP server per management node, driven by a simulated cluster. */
export { startSimulator, type MgmdInfo, type Simulator, type SimulatorOptions } from './simulator.js';
export { SCENARIOS, SCENARIO_NAMES, type ScenarioName } from './scenarios/index.js';
export { RunMarks, type RunMarker } from './run-marks.js';
export { ClusterModel } from './cluster-model.js';
export type { DataNode, DataNodeStatus, ApiNode, MgmNode } from './state/node-state.js';
export {
  LOAD_PROFILE_NAMES,
  benchmarkProfile,
  idleProfile,
  rampProfile,
  steadyProfile,
  BENCHMARK_RATES,
  STEADY_RATES,
  type LoadProfile,
  type LoadProfileName,
  type LoadRates,
} from './workload/load-profile.js';
export type { WriteMode } from './wire/output-queue.js';
export type { OperationResult } from './operations/mgm-errors.js';
export type { RestartFlags } from './operations/node-operations.js';
export type { FailureOptions } from './lifecycle/failure.js';
