import type { ClusterModel } from '../cluster-model.js';
import type { LoadRates } from '../workload/load-profile.js';
import { WIRE } from '../activity/node-load.js';
import { constantProfile } from './benchmark-driver.js';
import { allStarted, waitUntil, type Scenario } from './scenario.js';

export const CONGESTED_NETWORK = {
  /** What each transporter's network carries (a shared, busy 100 Mbit/s link's share). */
  linkBytesPerSec: 1_000_000,
  /**
   * Use of the replication links between a node group's members: a calm stretch, then a burst past the network. A
   * send buffer fills at what is offered beyond the network (here 25 % of 1 MB/s: 2 MiB's 80 % in ~7 s) and drains at
   * what the network has spare (40 %: ~5 s), so each burst overloads the links and each calm clears them.
   */
  calm: { use: 0.6, durationMs: 30_000 },
  burst: { use: 1.25, durationMs: 30_000 },
} as const;

/** Writes per second that put `use` of the network on each replication link (each write forwarded to the other replica). */
function writesFor(model: ClusterModel, use: number): LoadRates {
  const perWrite = WIRE.replicationBytes + model.activity.rowBytes;
  const writes = (use * CONGESTED_NETWORK.linkBytesPerSec * model.data.size) / perWrite;
  return { readsPerSec: writes * 2, writesPerSec: writes, transPerSec: writes / 2, scansPerSec: 0, rangeScansPerSec: writes / 50 };
}

/**
 * Steady OLTP over a narrow network: calm stretches at 60 % of the links' bandwidth, bursts past it in which the
 * data nodes' send buffers back up, their transporters slow down and overload (ndbinfo `transporters`), and recover.
 */
export const congestedNetwork: Scenario = {
  name: 'congested-network',
  description: 'OLTP over a narrow network (1 MB/s per transporter): bursts past it overload and slow down the data nodes\' transporters, then calm',
  async run({ model, clock }) {
    model.activity.linkBytesPerSec = CONGESTED_NETWORK.linkBytesPerSec;
    for (;;) {
      await waitUntil(clock, () => allStarted(model));
      model.setLoad(constantProfile('congested-calm', writesFor(model, CONGESTED_NETWORK.calm.use)));
      await clock.sleep(CONGESTED_NETWORK.calm.durationMs);
      model.setLoad(constantProfile('congested-burst', writesFor(model, CONGESTED_NETWORK.burst.use)));
      await clock.sleep(CONGESTED_NETWORK.burst.durationMs);
    }
  },
};
