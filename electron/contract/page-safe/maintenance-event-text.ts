import type { MaintenanceEvent } from '../schemas/maintenance.js';

/**
 * One window event in words, the same on the page and in `ndbtop alerts --history`, times as `clock` writes them:
 * "mw-1 opened by alice@ops (disk swap), until 15:02:03, critical alerts silenced".
 */
export function maintenanceEventText(e: MaintenanceEvent, clock: (t: number) => string): string {
  const who = e.by === null ? '' : ` by ${e.by}`;
  const until = e.what === 'opened' || e.what === 'extended' ? (e.until === null ? ', until stopped' : `, until ${clock(e.until)}`) : '';
  const critical = e.what === 'opened' && e.silenceCritical ? ', critical alerts silenced' : '';
  return `${e.windowId} ${e.what}${who} (${e.reason})${until}${critical}`;
}
