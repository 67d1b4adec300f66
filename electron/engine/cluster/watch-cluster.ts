import type { ClusterSource } from '../core/engine-core.js';
import { SqlWatch, type SqlSourceSpec, type SqlWatchOptions } from '../facts/ndbinfo/sql-watch.js';
import type { ClusterMonitor } from './cluster-monitor.js';
import type { TrackerInput } from './tracker-input.js';

/**
 * Starts a cluster's sources: the management server's monitor (whose sink is `feed`) and, when SQL nodes are
 * named, the SQL source, told to read restart_info every second while `get status` shows a data node starting.
 * Closing the returned source closes both.
 */
export function watchCluster(monitor: ClusterMonitor, sql: SqlSourceSpec | null, feed: (input: TrackerInput) => void, options?: SqlWatchOptions): ClusterSource & { readonly sqlWatch: SqlWatch | null } {
  const watch = sql ? new SqlWatch(sql, feed, options) : null;
  const source = {
    sqlWatch: watch,
    runAction: monitor.runAction.bind(monitor),
    setPollInterval: monitor.setPollInterval.bind(monitor),
    setFailover: monitor.setFailover.bind(monitor),
    close: () => {
      monitor.close();
      void watch?.close();
    },
  };
  monitor.start();
  return source;
}

/** Whether a `get status` reply shows a data node on its way up. */
export function dataNodeStarting(input: TrackerInput): boolean | null {
  if (input.kind !== 'status') return null;
  return input.nodes.some((n) => n.type === 'NDB' && n.status === 'STARTING');
}

/**
 * Keeps restart_info read every second a little after the last node starting turned STARTED: the reading that says
 * "Restart completed" comes after STARTED (the rolling restart waits for it), not at the next 30 s reading.
 */
export const RESTART_WATCH_HOLD_MS = 5000;

export function restartWatchHint(set: (on: boolean) => void): (input: TrackerInput) => void {
  let lastStarting: number | null = null;
  return (input) => {
    const starting = dataNodeStarting(input);
    if (starting === null) return;
    if (starting) lastStarting = input.t;
    set(starting || (lastStarting !== null && input.t - lastStarting < RESTART_WATCH_HOLD_MS));
  };
}
