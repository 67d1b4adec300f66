import type { Scenario } from './scenario.js';

// Up much longer than down, so a client that failed over and back gets time to work before the next outage.
const UP_MS = 30_000;
const DOWN_MS = 10_000;
const FAILING_MGMD = 1;

export const mgmdFailover: Scenario = {
  name: 'mgmd-failover',
  description: 'two management servers; mgmd 1 stops (its port refuses), comes back later, repeatedly',
  requires: (model) => (model.mgm.size >= 2 ? null : 'the mgmd-failover scenario needs mgmNodes: 2'),
  async run({ model, clock, stopMgmd, startMgmd }) {
    model.setLoad('steady');
    for (;;) {
      await clock.sleep(UP_MS);
      await stopMgmd(FAILING_MGMD);
      await clock.sleep(DOWN_MS);
      await startMgmd(FAILING_MGMD);
    }
  },
};
