import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';
import type { Incident } from '../contract.js';

export interface IncidentsState {
  /** The shown cluster's incidents as the engine last gave them, newest first. */
  incidents: readonly Incident[];
  /** The incident opened in the Incidents view (a node card's badge and an alert's link open one). */
  openId: string | null;
}

/**
 * The incidents the engine derived (`getIncidents`), kept beside the app store: the Incidents view lists them and
 * each data node's card badges its recent one. One page shows one cluster, so one of these per page.
 */
export const incidentsStore = createStore<IncidentsState>(() => ({ incidents: [], openId: null }));

export function useIncidents<T>(selector: (s: IncidentsState) => T): T {
  return useStore(incidentsStore, selector);
}
