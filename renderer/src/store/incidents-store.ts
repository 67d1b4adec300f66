import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';
import type { Incident, IncidentSummary } from '../contract.js';

export interface IncidentsState {
  /** The shown cluster's incidents as the engine last listed them (`listIncidents`: summaries), newest first. */
  incidents: readonly IncidentSummary[];
  /** The incident opened in the Incidents view (a node card's badge and an alert's link open one). */
  openId: string | null;
  /**
   * The one incident shown in full (`getIncident`: evidence, the minute before, restart phases), while the Incidents
   * view shows it; null otherwise. The page holds no other incident's detail: the engine keeps up to 200, each with
   * its evidence, and a list of them all, asked again at each node status change, was the page's heap growing.
   */
  detail: Incident | null;
}

/**
 * The incidents the engine derived, kept beside the app store: the Incidents view lists them and each data node's
 * card badges its recent one. One page shows one cluster, so one of these per page.
 */
export const incidentsStore = createStore<IncidentsState>(() => ({ incidents: [], openId: null, detail: null }));

export function useIncidents<T>(selector: (s: IncidentsState) => T): T {
  return useStore(incidentsStore, selector);
}
