import { INCIDENT_CAUSE_KINDS } from '../../contract/schemas/incidents.js';
import type { FamilyMaker, FamilyRecorder } from './family.js';

/** Unplanned data node failures the engine explained, per cause kind (every kind, so a first one is an increase). */
export function incidentFamilies({ counter }: FamilyMaker): FamilyRecorder {
  const total = counter('ndbtop_incidents_total', 'Incidents (unplanned data node failures, several nodes falling together counted once) since ndbtop started, by the cause the engine named', ['cluster', 'cause']);
  return ({ cluster, counters }) => {
    if (!counters.incidents) return;
    for (const cause of INCIDENT_CAUSE_KINDS) total.inc({ cluster, cause }, counters.incidents[cause]);
  };
}
