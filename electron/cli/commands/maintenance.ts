import { InvalidArgumentError, type Command } from 'commander';
import { hostname, userInfo } from 'node:os';
import { ALERT_KINDS } from '../../contract/page-safe/vocabulary.js';
import type { AlertKind } from '../../contract/schemas/events.js';
import type { MaintenanceWindow } from '../../contract/schemas/maintenance.js';
import { MAX_MAINTENANCE_TEXT } from '../../contract/page-safe/maintenance-bounds.js';
import { postApi } from '../../serve/runs-client.js';
import { isOneOf } from '../options/options.js';
import { endpointFrom as endpoint, printMark as print, withEndpoint as withEndpointJson, type EndpointOpts } from '../serve-endpoint.js';

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** "90s", "30m", "2h", "1d" (or plain seconds) → milliseconds. */
export function parseDuration(text: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*([smhd]?)$/.exec(text.trim());
  const ms = m ? Number(m[1]) * (UNITS[m[2] || 's'] ?? 1000) : NaN;
  if (!Number.isFinite(ms) || ms <= 0) throw new InvalidArgumentError(`"${text}" is not a duration (e.g. 90s, 30m, 2h)`);
  return Math.round(ms);
}

/** "node-down,node-group-degraded" → the alert kinds, each checked against the contract's list. */
export function parseKinds(text: string): AlertKind[] {
  return text.split(',').map((k) => k.trim()).filter(Boolean).map((k) => {
    if (!isOneOf(ALERT_KINDS, k)) throw new InvalidArgumentError(`"${k}" is not an alert kind (${ALERT_KINDS.join(', ')})`);
    return k;
  });
}

const withEndpoint = (command: Command): Command =>
  withEndpointJson(command, 'print the window as JSON instead of its id').option('--by <name>', 'who does it, for the window and the alert history (default: user@host)');

/** The user at this host, as the window and the history name who opened, extended or closed it. */
function defaultBy(): string | undefined {
  try {
    return `${userInfo().username}@${hostname()}`.slice(0, 100);
  } catch {
    return undefined;
  }
}

type ByOpts = EndpointOpts & { by?: string };
const byOf = (opts: ByOpts): { by?: string } => {
  const by = opts.by ?? defaultBy();
  return by === undefined ? {} : { by };
};

/**
 * `ndbtop maintenance start|extend|stop`: maintenance windows on a serving ndbtop, over its HTTP API (like `ndbtop
 * run`); the server must run with --allow-changes.
 */
export function registerMaintenance(program: Command): void {
  const cmd = program.command('maintenance').description('open, extend and close maintenance windows on a serving ndbtop (silence chosen alert kinds, mark the charts; needs serve --allow-changes)');
  withEndpoint(cmd.command('start').description('open a maintenance window; prints its id'))
    .option('--duration <time>', `close it by itself after this long (90s, 30m, 2h; default 1h, at most ${MAX_MAINTENANCE_TEXT})`, parseDuration)
    .option('--silence <kinds>', `alert kinds to silence, comma-separated (default: all): ${ALERT_KINDS.join(', ')}`, parseKinds)
    .option('--silence-critical', 'silence critical alerts of those kinds too (node down, node group offline, lost management server …); never without it')
    .option('--reason <text>', 'what the maintenance is, shown on the charts and in the alert history')
    .action(async (opts: ByOpts & { duration?: number; silence?: AlertKind[]; silenceCritical?: boolean; reason?: string }) =>
      print(
        await postApi<MaintenanceWindow>(endpoint(opts), 'maintenance', {
          ...(opts.reason ? { reason: opts.reason } : {}),
          ...(opts.silence ? { silence: opts.silence } : {}),
          ...(opts.duration ? { durationMs: opts.duration } : {}),
          ...(opts.silenceCritical ? { silenceCritical: true } : {}),
          ...byOf(opts),
        }),
        opts,
      ),
    );
  withEndpoint(cmd.command('extend').description(`push an open window's end further (its whole length at most ${MAX_MAINTENANCE_TEXT})`).argument('<id>'))
    .requiredOption('--duration <time>', 'how much longer (90s, 30m, 2h)', parseDuration)
    .action(async (id: string, opts: ByOpts & { duration: number }) => print(await postApi<MaintenanceWindow>(endpoint(opts), `maintenance/${encodeURIComponent(id)}/extend`, { durationMs: opts.duration, ...byOf(opts) }), opts));
  withEndpoint(cmd.command('stop').description('close a maintenance window').argument('<id>')).action(async (id: string, opts: ByOpts) =>
    print(await postApi<MaintenanceWindow>(endpoint(opts), `maintenance/${encodeURIComponent(id)}/stop`, byOf(opts)), opts),
  );
}
