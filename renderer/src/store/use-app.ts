import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { NdbtopApi } from '../contract.js';
import type { AppState, AppStore } from './store.js';

export interface AppContextValue {
  store: AppStore;
  api: NdbtopApi;
  /** Shows another watched cluster; its history and events are the engine's, kept while it was not shown. */
  selectCluster(clusterId: string): Promise<void>;
}

export const AppContext = createContext<AppContextValue | null>(null);

export function useAppContext(): AppContextValue {
  const value = useContext(AppContext);
  if (!value) throw new Error('AppContext missing: render inside <AppProvider>');
  return value;
}

/** Narrow selector on the app store; the component re-renders only when the selected value changes (Object.is). */
export function useApp<T>(selector: (state: AppState) => T): T {
  return useStore(useAppContext().store, selector);
}
