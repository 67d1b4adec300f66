import { useEffect } from 'react';
import { incidentsStore } from '../store/incidents-store.js';
import { useApp, useAppContext } from '../store/use-app.js';

/**
 * Incidents change when a node falls (an alert comes) or its restart moves on (its status or start phase changes):
 * asked again at each, and this often meanwhile (a cause judged from events that came later).
 */
const REFRESH_MS = 5000;

/**
 * Keeps `incidentsStore` to the shown cluster's incident summaries (`listIncidents`): at once, on every node-down alert and data node status or
 * start phase change, and every few seconds. Asked only on the alert, a restart's "not back yet" stood for up to
 * 5 s beside a node card already STARTED. An incident's detail is asked only when it is opened (`use-incident-detail.ts`).
 */
export function useIncidentSync(): void {
  const { api, store } = useAppContext();
  const clusterId = useApp((s) => s.live.clusterId);
  const downAlerts = useApp((s) => s.live.alerts.filter((a) => a.kind === 'node-down').map((a) => `${a.id}:${a.resolvedAt ?? ''}`).join(','));
  const restarts = useApp((s) => [...s.live.nodes.values()].filter((n) => n.type === 'NDB').map((n) => `${n.nodeId}:${n.status}:${n.startPhase}`).join(','));
  useEffect(() => {
    if (clusterId === null) return;
    let current = true;
    const ask = (): void => {
      api
        .listIncidents({ clusterId })
        .then((r) => current && incidentsStore.setState({ incidents: r.incidents }))
        .catch((err: unknown) => current && store.setUi({ error: `incidents: ${err instanceof Error ? err.message : String(err)}` }));
    };
    ask();
    const timer = setInterval(ask, REFRESH_MS);
    return () => {
      current = false;
      clearInterval(timer);
    };
  }, [api, store, clusterId, downAlerts, restarts]);
}
