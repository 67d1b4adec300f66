import { allStarted, waitUntil, type Scenario } from './scenario.js';

const HEALTHY_MS = 5000;
const DOWN_MS = 8000;

export const nodeFailure: Scenario = {
  name: 'node-failure',
  description: 'steady load; data nodes crash in turn, stay NO_CONTACT a while, then the angel restarts them',
  async run({ model, clock }) {
    model.setLoad('steady');
    for (;;) {
      for (const id of [...model.data.keys()]) {
        await waitUntil(clock, () => allStarted(model));
        await clock.sleep(HEALTHY_MS);
        model.failNode(id, { autoRestart: true, downMs: DOWN_MS });
        await waitUntil(clock, () => model.dataNode(id).status === 'STARTED');
      }
    }
  },
};
