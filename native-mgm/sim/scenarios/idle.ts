import type { Scenario } from './scenario.js';

export const idle: Scenario = {
  name: 'idle',
  description: 'all nodes up, no traffic (statistics report zeros)',
  async run({ model }) {
    model.setLoad('idle');
  },
};
