import { lazy } from 'react';

/**
 * Views other than Nodes, each its own chunk: the first paint of the node grid does not wait for recharts or
 * the other views' code. Once the grid is up the chunks are fetched in the background, so switching to a view
 * later does not wait for the network either.
 */
const loaders = {
  restarts: () => import('./RestartsView.js').then((m) => ({ default: m.RestartsView })),
  throughput: () => import('./ThroughputView.js').then((m) => ({ default: m.ThroughputView })),
  settings: () => import('./SettingsView.js').then((m) => ({ default: m.SettingsView })),
  config: () => import('./ConfigView.js').then((m) => ({ default: m.ConfigView })),
  tls: () => import('./TlsView.js').then((m) => ({ default: m.TlsView })),
  runs: () => import('./RunsView.js').then((m) => ({ default: m.RunsView })),
  io: () => import('./IoView.js').then((m) => ({ default: m.IoView })),
  threads: () => import('./ThreadsView.js').then((m) => ({ default: m.ThreadsView })),
  incidents: () => import('./IncidentsView.js').then((m) => ({ default: m.IncidentsView })),
  backups: () => import('./BackupsView.js').then((m) => ({ default: m.BackupsView })),
};

export const RestartsView = lazy(loaders.restarts);
export const ThroughputView = lazy(loaders.throughput);
export const SettingsView = lazy(loaders.settings);
export const ConfigView = lazy(loaders.config);
export const TlsView = lazy(loaders.tls);
export const RunsView = lazy(loaders.runs);
export const IoView = lazy(loaders.io);
export const ThreadsView = lazy(loaders.threads);
export const IncidentsView = lazy(loaders.incidents);
export const BackupsView = lazy(loaders.backups);

/** Loads every view's chunk without showing it (the module cache makes the later lazy() load instant). */
export function prefetchViews(): void {
  for (const load of Object.values(loaders)) void load().catch(() => undefined);
}
