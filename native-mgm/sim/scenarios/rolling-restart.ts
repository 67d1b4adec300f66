import { eachDataNodeInTurn, type Scenario } from './scenario.js';

const PAUSE_MS = 3000;

export const rollingRestart: Scenario = {
  name: 'rolling-restart',
  description: 'steady load while each data node is restarted in turn, one at a time, looping with pauses',
  async run(ctx) {
    ctx.model.setLoad('steady');
    await eachDataNodeInTurn(ctx, PAUSE_MS, (id) => ctx.model.restartNode(id));
  },
};
