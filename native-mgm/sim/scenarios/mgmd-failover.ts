import type { Scenario } from './scenario.js';

// Up much longer than down, so a client that failed over and back gets time to work before the next outage.
const UP_MS = 30_000;
const DOWN_MS = 10_000;

export const mgmdFailover: Scenario = {
  name: 'mgmd-failover',
  description: 'two management servers; the first stops (its port refuses), comes back later, repeatedly',
  requires: (model) => (model.mgm.size >= 2 ? null : 'the mgmd-failover scenario needs mgmNodes: 2'),
  async run({ model, clock, stopMgmd, startMgmd }) {
    model.setLoad('steady');
    // The first management server: node 1, or the first id after the data nodes when 144 of them fill 1..144.
    const failing = Math.min(...model.mgm.keys());
    for (;;) {
      await clock.sleep(UP_MS);
      await stopMgmd(failing);
      await clock.sleep(DOWN_MS);
      await startMgmd(failing);
    }
  },
};
