import type { EngineHandlers } from '../../../contract/page-safe/api.js';
import type { ClusterEntry, EngineCore } from '../../core/engine-core.js';
import { EngineRequestError } from '../../core/engine-error.js';
import { RollingError, type RollingHost } from './rolling-host.js';

type RollingHandlers = Pick<
  EngineHandlers,
  'getRollingRestart' | 'planRollingRestart' | 'startRollingRestart' | 'haltRollingRestart' | 'resumeRollingRestart' | 'abortRollingRestart'
>;

/**
 * The rolling-restart requests. Reading the plan is open to every viewer (a replay shows the one it recorded);
 * planning, starting, halting, resuming and aborting are operator actions, refused unless ndbtop runs with
 * --allow-actions, whatever the transport. `hostOf`: the cluster's hosted rolling restart, none for a recording.
 */
export function rollingHandlers(engine: EngineCore, hostOf: (entry: ClusterEntry) => RollingHost | undefined): RollingHandlers {
  const host = (clusterId: string | undefined): RollingHost => {
    if (!engine.actionsAllowed) throw new RollingError('FORBIDDEN', 'a rolling restart is an operator action: they are disabled (start ndbtop with --allow-actions)');
    const entry = engine.cluster(clusterId);
    const rolling = hostOf(entry);
    if (!rolling) throw new EngineRequestError('UNSUPPORTED', 'this cluster is a recording: nothing can be sent to it');
    return rolling;
  };
  return {
    getRollingRestart: async ({ clusterId }) => engine.cluster(clusterId).tracker.snapshot().rollingPlan ?? null,
    planRollingRestart: async ({ clusterId, nodes, order, pauseMs, checks }) => host(clusterId).plan({ nodes, order, pauseMs, ...(checks ? { checks } : {}) }),
    startRollingRestart: async ({ clusterId, planId }) => host(clusterId).start(planId),
    haltRollingRestart: async ({ clusterId, planId }) => host(clusterId).halt(planId),
    resumeRollingRestart: async ({ clusterId, planId, skip }) => host(clusterId).resume(planId, skip),
    abortRollingRestart: async ({ clusterId, planId }) => host(clusterId).abort(planId),
  };
}
