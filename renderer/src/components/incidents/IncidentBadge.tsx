import { useNow } from '../../hooks/use-now.js';
import { incidentsStore, useIncidents } from '../../store/incidents-store.js';
import { useAppContext } from '../../store/use-app.js';
import { recentIncident } from '../../view-model/incidents/incident-timeline.js';
import './incident-badge.css';

/** A data node's recent incident on its card (while recent or not back): its cause kind, opening it in the Incidents view. */
export function IncidentBadge({ nodeId }: { nodeId: number }) {
  const { store } = useAppContext();
  const now = useNow();
  const incident = useIncidents((s) => recentIncident(s.incidents, nodeId, now));
  if (!incident) return null;
  return (
    <button type="button" className="incident-badge" data-testid={`incident-badge-${nodeId}`} data-incident-id={incident.id} title={`incident: ${incident.cause.text}`} onClick={() => openIncident(store, incident.id)}>
      incident: {incident.cause.kind}
    </button>
  );
}

/** Opens an incident in the Incidents view. */
export function openIncident(store: { setUi(patch: { view: 'incidents' }): void }, id: string): void {
  incidentsStore.setState({ openId: id });
  store.setUi({ view: 'incidents' });
}
