import { eachDataNodeInTurn, type Scenario } from './scenario.js';

const HEALTHY_MS = 5000;
const DOWN_MS = 8000;

export const nodeFailure: Scenario = {
  name: 'node-failure',
  description: 'steady load; data nodes crash in turn, stay NO_CONTACT a while, then the angel restarts them',
  async run(ctx) {
    ctx.model.setLoad('steady');
    await eachDataNodeInTurn(ctx, HEALTHY_MS, (id) => ctx.model.failNode(id, { autoRestart: true, downMs: DOWN_MS }));
  },
};
