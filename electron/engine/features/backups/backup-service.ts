import type { EngineHandlers } from '../../../contract/page-safe/api.js';
import type { EngineCore } from '../../core/engine-core.js';

type BackupHandlers = Pick<EngineHandlers, 'getBackups'>;

/** The cluster's backups as the engine derived them (`cluster/rooms/backup-room.ts`): `GET /api/backups`, `ndbtop backup status`. */
export function backupHandlers(engine: EngineCore): BackupHandlers {
  return {
    getBackups: async ({ clusterId }) => engine.cluster(clusterId).tracker.backups(),
  };
}
