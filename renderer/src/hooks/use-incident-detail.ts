import { useEffect } from 'react';
import type { Incident } from '../contract.js';
import { incidentsStore, useIncidents } from '../store/incidents-store.js';
import { useApp, useAppContext } from '../store/use-app.js';

/**
 * The opened incident (`id`) in full, from `getIncident`: asked when it is opened and again with each list the sync
 * brings (its restart moves on: phases the summary does not carry), kept in `incidentsStore.detail` while the caller
 * is mounted and dropped after. Null until the engine answered for this id, or when it no longer keeps it.
 */
export function useIncidentDetail(id: string | null): Incident | null {
  const { api, store } = useAppContext();
  const clusterId = useApp((s) => s.live.clusterId);
  const list = useIncidents((s) => s.incidents);
  const detail = useIncidents((s) => s.detail);
  useEffect(() => {
    if (clusterId === null || id === null) return;
    let current = true;
    api
      .getIncident({ clusterId, id })
      .then((i) => current && incidentsStore.setState({ detail: i }))
      .catch((err: unknown) => current && store.setUi({ error: `incident ${id}: ${err instanceof Error ? err.message : String(err)}` }));
    return () => {
      current = false;
    };
  }, [api, store, clusterId, id, list]);
  useEffect(() => () => incidentsStore.setState({ detail: null }), []);
  return detail?.id === id ? detail : null;
}
