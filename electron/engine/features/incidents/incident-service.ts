import type { EngineHandlers } from '../../../contract/page-safe/api.js';
import type { EngineCore } from '../../core/engine-core.js';

/**
 * The incidents of one cluster as its tracker derived them (`cluster/rooms/incident-room.ts`): live, replayed, or
 * rebuilt from a recording, the same derivation. Each carries its cluster's id.
 */
export function incidentHandlers(engine: EngineCore): Pick<EngineHandlers, 'getIncidents'> {
  return {
    getIncidents: async ({ clusterId, sinceMs }) => {
      const entry = engine.cluster(clusterId);
      const incidents = entry.tracker.incidents.list().filter((i) => sinceMs === undefined || i.noticedAt >= sinceMs);
      return { incidents: incidents.map((i) => ({ ...i, clusterId: entry.id })) };
    },
  };
}
