import type { Scenario } from './scenario.js';

export const steady: Scenario = {
  name: 'steady',
  description: 'all nodes up, steady OLTP load (about 40k reads/s, 10k writes/s)',
  async run({ model }) {
    model.setLoad('steady');
  },
};
