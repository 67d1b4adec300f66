import type { ViewName } from '../../store/ui-slice.js';

/**
 * Each view's one name: on its tab, in the keyboard help, as its tooltip and accessible name. Short enough that ten
 * tabs, the panels' doors and the actions fit one row at 1280 px.
 */
export const VIEW_NAMES: Record<ViewName, string> = {
  nodes: 'Nodes',
  restarts: 'Restarts',
  throughput: 'Throughput',
  events: 'Events',
  settings: 'Settings',
  config: 'Config',
  tls: 'TLS',
  runs: 'Runs',
  threads: 'Threads',
  io: 'Redo & transport',
  incidents: 'Incidents',
  backups: 'Backups',
};

/** What the name stands for, where a tooltip has room for more. */
const VIEW_TOOLTIPS: Partial<Record<ViewName, string>> = {
  config: 'the cluster configuration',
  io: 'redo and undo logs, disk writes and the transporters between nodes',
  incidents: 'why data nodes fell: each unplanned failure, its evidence and its restart',
  backups: 'the running backup with each data node\'s progress, rate and ETA, and the past backups',
};

export function viewTooltip(view: ViewName): string | undefined {
  const more = VIEW_TOOLTIPS[view];
  return more && `${VIEW_NAMES[view]}: ${more}`;
}
