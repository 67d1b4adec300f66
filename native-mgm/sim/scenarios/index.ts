import { arbitration } from './arbitration.js';
import { benchmark } from './benchmark.js';
import { collapse } from './collapse.js';
import { compressionAb } from './compression-ab.js';
import { congestedNetwork } from './congested-network.js';
import { flexAsynch } from './flexasynch.js';
import { gcpStop } from './gcp-stop.js';
import { heartbeatFailure } from './heartbeat-failure.js';
import { idle } from './idle.js';
import { internalError } from './internal-error.js';
import { mgmdFailover } from './mgmd-failover.js';
import { nodeFailure } from './node-failure.js';
import { redoFull } from './redo-full.js';
import { redoPressure } from './redo-pressure.js';
import { rollingRestart } from './rolling-restart.js';
import type { Scenario } from './scenario.js';
import { steady } from './steady.js';

export const SCENARIO_NAMES = ['idle', 'steady', 'rolling-restart', 'node-failure', 'mgmd-failover', 'benchmark', 'flexasynch', 'collapse', 'compression-ab', 'redo-pressure', 'congested-network', 'heartbeat-failure', 'arbitration', 'gcp-stop', 'redo-full', 'error'] as const;
export type ScenarioName = (typeof SCENARIO_NAMES)[number];

const BY_NAME: Record<ScenarioName, Scenario> = {
  idle,
  steady,
  'rolling-restart': rollingRestart,
  'node-failure': nodeFailure,
  'mgmd-failover': mgmdFailover,
  benchmark,
  flexasynch: flexAsynch,
  collapse,
  'compression-ab': compressionAb,
  'redo-pressure': redoPressure,
  'congested-network': congestedNetwork,
  'heartbeat-failure': heartbeatFailure,
  arbitration,
  'gcp-stop': gcpStop,
  'redo-full': redoFull,
  error: internalError,
};

export function scenario(name: ScenarioName): Scenario {
  return BY_NAME[name];
}

/** For the CLI's list: each scenario's name and one line about it. */
export const SCENARIOS: ReadonlyArray<{ name: ScenarioName; description: string }> = SCENARIO_NAMES.map((name) => ({
  name,
  description: BY_NAME[name].description,
}));
