import type { Command } from 'commander';
import { formatDuration } from '../../contract/page-safe/format-duration.js';
import { maintenanceEventText } from '../../contract/page-safe/maintenance-event-text.js';
import type { AlertHistory, AlertHistoryEntry, MaintenanceEvent } from '../../contract/schemas/maintenance.js';
import { getApi } from '../../serve/runs-client.js';
import { endpointFrom, withEndpoint, type EndpointOpts } from '../serve-endpoint.js';
import { printText } from '../format/terminal-text.js';
import { escapedJson } from '../../contract/page-safe/outside-text.js';

/** One alert a line, as the page's alert history lists it: raised, how long (or "on"), severity, kind, subject, words. */
export function historyLine(e: AlertHistoryEntry): string {
  const lasted = e.clearedAt === null ? 'on' : formatDuration(e.durationMs ?? e.clearedAt - e.raisedAt);
  const subject = e.nodeId === null ? 'cluster' : `node ${e.nodeId}`;
  const silenced = e.silencedBy === null ? '' : `  [silenced by ${e.silencedBy}]`;
  return `${new Date(e.raisedAt).toISOString()}  ${lasted.padEnd(12)}  ${e.severity.padEnd(8)}  ${e.kind}  ${subject}  ${e.message}${silenced}\n`;
}

const iso = (t: number): string => new Date(t).toISOString();

/** One maintenance window event a line, after the alerts: when, then what happened in words. */
export function windowLine(e: MaintenanceEvent): string {
  return `${iso(e.at)}  maintenance  ${maintenanceEventText(e, iso)}\n`;
}

/**
 * `ndbtop alerts [--history]`: the alerts of a serving ndbtop from its alert history (`GET /api/alerts/history`):
 * those still on, or with --history every alert of the session and every maintenance window event; newest first, as on
 * the page.
 */
export function registerAlerts(program: Command): void {
  withEndpoint(program.command('alerts').description('the alerts of a serving ndbtop: those on now, or every alert of the session with --history'), 'print the alert history as JSON ({entries, dropped, maintenance})')
    .option('--history', 'every alert of the session, with when it was raised and how long it lasted, and every maintenance window opened, extended, closed or expired')
    .action(async (opts: EndpointOpts & { history?: boolean }) => {
      const history = await getApi<AlertHistory>(endpointFrom(opts), 'alerts/history');
      const entries = opts.history ? history.entries : history.entries.filter((e) => e.clearedAt === null);
      // A serving ndbtop from before maintenance windows were in the history sends none.
      const windows = opts.history ? (history.maintenance ?? []) : [];
      if (opts.json) return void process.stdout.write(`${escapedJson({ entries, dropped: history.dropped, maintenance: windows })}\n`);
      if (entries.length === 0) process.stdout.write(opts.history ? 'no alerts this session\n' : 'no alert on\n');
      printText(process.stdout, [...entries].reverse().map(historyLine).join('') + [...windows].reverse().map(windowLine).join(''));
      if (history.dropped > 0 && opts.history) process.stdout.write(`(${history.dropped} older alerts dropped)\n`);
    });
}
