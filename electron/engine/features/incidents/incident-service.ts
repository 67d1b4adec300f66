import type { EngineHandlers } from '../../../contract/page-safe/api.js';
import type { Incident, IncidentSummary } from '../../../contract/index.js';
import type { EngineCore } from '../../core/engine-core.js';

/** What a list shows of an incident: no evidence, no minute before, no restart phases (`IncidentSummarySchema`). */
export function incidentSummary(i: Incident): IncidentSummary {
  const { otherCauses: _others, before: _before, cause, restart, ...rest } = i;
  const { phases: _phases, ...restartSummary } = restart;
  return { ...rest, cause: { kind: cause.kind, text: cause.text }, restart: restartSummary };
}

/**
 * The incidents of one cluster as its tracker derived them (`cluster/rooms/incident-room.ts`): live, replayed, or
 * rebuilt from a recording, the same derivation. Each carries its cluster's id. `getIncidents` gives them in full
 * (the CLI, scripts); a page lists summaries and asks for one incident in full when it opens it.
 */
export function incidentHandlers(engine: EngineCore): Pick<EngineHandlers, 'getIncidents' | 'listIncidents' | 'getIncident'> {
  const incidents = (clusterId: string | undefined, sinceMs: number | undefined): Incident[] => {
    const entry = engine.cluster(clusterId);
    return entry.tracker.incidents
      .list()
      .filter((i) => sinceMs === undefined || i.noticedAt >= sinceMs)
      .map((i) => ({ ...i, clusterId: entry.id }));
  };
  return {
    getIncidents: async ({ clusterId, sinceMs }) => ({ incidents: incidents(clusterId, sinceMs) }),
    listIncidents: async ({ clusterId, sinceMs }) => ({ incidents: incidents(clusterId, sinceMs).map(incidentSummary) }),
    getIncident: async ({ clusterId, id }) => {
      const entry = engine.cluster(clusterId);
      const i = entry.tracker.incidents.find(id);
      return i && { ...i, clusterId: entry.id };
    },
  };
}
