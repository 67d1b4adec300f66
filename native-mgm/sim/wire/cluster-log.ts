import { CATEGORIES, type Category } from '../../events/catalogue.js';

/** Severity switches of `get info clusterlog`, in severity-number order 0..6 (spec §4.8). */
export const SEVERITY_KEYS = ['enabled', 'debug', 'info', 'warning', 'error', 'critical', 'alert'] as const;

/**
 * One management server's own cluster log settings: category levels (spec §4.9) and severity switches (§4.8).
 * They change what the mgmd logs, not what listeners receive.
 */
export class ClusterLogState {
  readonly levels = new Map<Category, number>(CATEGORIES.map((c) => [c, 7]));
  /**
   * The logger's eight flags, by `set logfilter` level: 0 the master switch, 1..6 DEBUG..ALERT, 7 ALL. The server's
   * defaults (spec §14.1): the master switch and INFO..ALERT on, DEBUG and ALL off.
   */
  readonly severities = [true, false, true, true, true, true, true, false];

  constructor() {
    this.levels.set('CONNECTION', 8);
    this.levels.set('ERROR', 15);
    this.levels.set('BACKUP', 15);
  }
}
