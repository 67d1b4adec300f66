import { NDBD_EXIT } from '../lifecycle/exit-codes.js';
import { dataNodeParam } from './node-params.js';
import { eachNonMasterInTurn, waitUntil, type Scenario } from './scenario.js';

export const GCP_STOP = {
  /** Long enough for a run of completed checkpoints (one per TimeBetweenGlobalCheckpoints) before the disk slows. */
  healthyMs: 30_000,
  /** The failing disk takes this share of the redo the node writes: the rest waits in its redo buffer. */
  slowDiskShare: 0.2,
  downMs: 8_000,
} as const;

/**
 * Steady load; one data node's disk slows to a fifth of its redo writes (ndbinfo: redo and LCP write speed fall, the
 * redo buffer fills), its redo for the running global checkpoint never reaches disk, and the checkpoint stalls
 * (GlobalCheckpointStarted/Completed stop). After TimeBetweenGlobalCheckpointsTimeout the master kills the node
 * (NDBStopForced 2303, "Node N killed this node because GCP stop was detected" in its error log); the angel restarts
 * it on a disk that works again, and the checkpoints go on. Each time another node, never the master.
 */
export const gcpStop: Scenario = {
  name: 'gcp-stop',
  description: "steady load; a data node's disk slows, the global checkpoint stalls, the master stops the node (2303); it restarts",
  requires: (model) => (model.data.size >= 2 ? null : 'the gcp-stop scenario needs at least 2 data nodes'),
  async run(ctx) {
    const { model, clock } = ctx;
    model.setLoad('steady');
    const anyNode = Math.min(...model.data.keys());
    model.checkpoints.holdWhile({
      timeoutMs: dataNodeParam(model, anyNode, 'TimeBetweenGlobalCheckpointsTimeout'),
      holders: () => {
        model.activity.advanceTo(clock.now());
        return model.liveDataNodes().filter((n) => model.activity.redoLog(n.id).buffered > 0);
      },
      stop: (holders) => {
        for (const node of holders) {
          const redo = model.activity.redoLog(node.id);
          // The process dies with what its redo buffer held; it comes back on a disk that works again.
          redo.diskBytesPerSec = Infinity;
          redo.freeAfterRestart();
          model.failNode(node.id, { autoRestart: true, downMs: GCP_STOP.downMs, error: NDBD_EXIT.systemError });
        }
      },
    });
    await eachNonMasterInTurn(ctx, GCP_STOP.healthyMs, async (id) => {
      const node = model.dataNode(id);
      const writes = model.activity.loadAt(node, clock.now()).replicaWrites * model.activity.rowBytes;
      model.activity.redoLog(id).diskBytesPerSec = writes * GCP_STOP.slowDiskShare;
      await waitUntil(clock, () => node.status !== 'STARTED');
    });
  },
};
