import { NDBD_EXIT } from '../lifecycle/exit-codes.js';
import { eachDataNodeInTurn, type Scenario } from './scenario.js';

export const INTERNAL_ERROR = { healthyMs: 20_000, downMs: 8_000 } as const;

/**
 * A data node's kernel fails one of its own checks (ndbrequire) and shuts down with 2341, with nothing before it in
 * the cluster log or ndbinfo: the angel reports NDBStopForced with the code, the survivors handle the failure, and
 * the angel restarts it. Each data node in turn.
 */
export const internalError: Scenario = {
  name: 'error',
  description: 'steady load; a data node fails an internal check and shuts down with error 2341 (failed ndbrequire); the angel restarts it',
  requires: (model) => (model.data.size >= 2 ? null : 'the error scenario needs at least 2 data nodes'),
  async run(ctx) {
    ctx.model.setLoad('steady');
    await eachDataNodeInTurn(ctx, INTERNAL_ERROR.healthyMs, (id) => ctx.model.failNode(id, { autoRestart: true, downMs: INTERNAL_ERROR.downMs, error: NDBD_EXIT.ndbrequire }));
  },
};
