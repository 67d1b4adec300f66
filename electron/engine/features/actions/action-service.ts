import type { EngineHandlers } from '../../../contract/page-safe/api.js';
import type { EngineCore } from '../../core/engine-core.js';
import { previewAction } from './action-preview.js';
import { backupDirectoryText } from '../../facts/backups/backup-dir.js';

type ActionHandlers = Pick<EngineHandlers, 'previewAction' | 'runAction'>;

/** Operator actions: what one would do, and doing it through the cluster's live source (only with --allow-actions). */
export function actionHandlers(engine: EngineCore): ActionHandlers {
  return {
    previewAction: async ({ clusterId, action }) => {
      const tracker = engine.cluster(clusterId).tracker;
      const nodes = tracker.configView()?.nodes;
      return previewAction(action, tracker.snapshot(), engine.actionsAllowed, { noOfReplicas: tracker.replicas(), backupDirectory: nodes ? backupDirectoryText(nodes) : null });
    },
    runAction: async ({ clusterId, action }) => {
      const entry = engine.cluster(clusterId);
      if (!engine.actionsAllowed) return { ok: false, message: 'operator actions are disabled (start ndbtop with --allow-actions)' };
      if (!entry.source) return { ok: false, message: 'this cluster is a recording: nothing can be sent to it' };
      return entry.source.runAction(action);
    },
  };
}
