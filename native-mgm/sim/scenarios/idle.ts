import type { Scenario } from './scenario.js';

export const idle: Scenario = {
  name: 'idle',
  description: 'all nodes up, no traffic (statistics report zeros)',
  // The cluster starts without load: nothing to do, so whatever load a test or operator sets stays, however late
  // the scenario begins (the embedded simulator begins it when first watched).
  async run() {},
};
