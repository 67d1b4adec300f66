import type { ThreadPressure } from '../activity/thread-pressure.js';
import { NDBD_EXIT } from '../lifecycle/exit-codes.js';
import { heartbeatChecker, heartbeatsStop } from '../lifecycle/heartbeat.js';
import { dataNodeParam } from './node-params.js';
import { eachDataNodeInTurn, type Scenario } from './scenario.js';

export const HEARTBEAT_FAILURE = {
  healthyMs: 20_000,
  /**
   * QMGR runs in the main thread: offered half again what it can do, and with 60 % of its CPU taken by something
   * else on the host, it stops sending heartbeats in time.
   */
  starvation: { kind: 'main', exec: 1.5, stolen: 0.6 } satisfies ThreadPressure,
  /** cpustat shows the starving thread this long before its last heartbeat goes out. */
  starvingBeforeMs: 5_000,
  downMs: 8_000,
} as const;

/**
 * A data node's main thread starves (cpustat: exec near 100 %, OS user time far below it); its right neighbour in
 * the heartbeat ring misses its heartbeats (MissedHeartbeat 2, 3, 4, one HeartbeatIntervalDbDb apart) and declares
 * it dead; the node shuts down with 2315 (NDBStopForced), the survivors handle the failure, and the angel restarts it.
 */
export const heartbeatFailure: Scenario = {
  name: 'heartbeat-failure',
  description: "steady load; a data node's main thread starves, its neighbour misses its heartbeats and declares it dead; the angel restarts it",
  requires: (model) => (model.data.size >= 2 ? null : 'the heartbeat-failure scenario needs at least 2 data nodes'),
  async run(ctx) {
    const { model, clock } = ctx;
    const { starvation, starvingBeforeMs, healthyMs, downMs } = HEARTBEAT_FAILURE;
    model.setLoad('steady');
    await eachDataNodeInTurn(ctx, healthyMs, async (id) => {
      const node = model.dataNode(id);
      model.activity.threadPressure.set(id, starvation);
      await clock.sleep(starvingBeforeMs);
      const checker = heartbeatChecker(model, node);
      if (checker) await heartbeatsStop(model, [{ checker, silent: node }], dataNodeParam(model, checker.id, 'HeartbeatIntervalDbDb'));
      // The new process starts with threads that keep up.
      model.activity.threadPressure.delete(id);
      model.failNode(id, { autoRestart: true, downMs, error: NDBD_EXIT.nodeDeclaredDead });
    });
  },
};
