import { allStarted, waitUntil, type Scenario } from './scenario.js';

const PAUSE_MS = 3000;

export const rollingRestart: Scenario = {
  name: 'rolling-restart',
  description: 'steady load while each data node is restarted in turn, one at a time, looping with pauses',
  async run({ model, clock }) {
    model.setLoad('steady');
    for (;;) {
      for (const id of [...model.data.keys()]) {
        await waitUntil(clock, () => allStarted(model));
        await clock.sleep(PAUSE_MS);
        await model.restartNode(id);
        await waitUntil(clock, () => model.dataNode(id).status === 'STARTED');
      }
    }
  },
};
