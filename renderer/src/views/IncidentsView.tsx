import { incidentNodes, restartWords } from '../contract.js';
import { IncidentDetail } from '../components/incidents/IncidentDetail.js';
import { useIncidentDetail } from '../hooks/use-incident-detail.js';
import { incidentsStore, useIncidents } from '../store/incidents-store.js';
import { formatDateTime } from '../view-model/format.js';
import './incidents.css';

/**
 * Why data nodes fell: the engine's incidents newest first (each unplanned failure, its cause and restart); one
 * opens to its timeline (its detail asked of the engine then; the list holds summaries). A planned restart, an operator's stop from ndbtop or a maintenance window raises none.
 */
export function IncidentsView() {
  const incidents = useIncidents((s) => s.incidents);
  const openId = useIncidents((s) => s.openId);
  const open = incidents.find((i) => i.id === openId) ?? incidents[0] ?? null;
  const detail = useIncidentDetail(open?.id ?? null);
  return (
    <div className="incidents-view" data-testid="incidents-view" data-count={incidents.length}>
      <section className="incident-list" aria-label="incidents, newest first">
        <h2>Incidents</h2>
        {incidents.length === 0 && <p className="muted">No unplanned data node failure since ndbtop began watching.</p>}
        <ul>
          {incidents.map((i) => (
            <li key={i.id}>
              <button type="button" className="incident-row" data-testid="incident-row" data-incident-id={i.id} data-kind={i.cause.kind} aria-current={open?.id === i.id ? 'true' : undefined} onClick={() => incidentsStore.setState({ openId: i.id })}>
                <span className="incident-when">{formatDateTime(i.noticedAt)}</span>
                <span className="incident-nodes">{incidentNodes(i)}</span>
                <span className={`chip cause-${i.cause.kind}`}>{i.cause.kind}</span>
                <span className="incident-text">{i.cause.text}</span>
                <span className="incident-restart muted">{restartWords(i.restart, formatDateTime)}</span>
              </button>
            </li>
          ))}
        </ul>
      </section>
      {detail && <IncidentDetail incident={detail} />}
    </div>
  );
}
