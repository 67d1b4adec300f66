import { InvalidArgumentError, type Command } from 'commander';
import { AlertKindSchema, type AlertKind } from '../../contract/schemas/events.js';
import type { MaintenanceWindow } from '../../contract/schemas/maintenance.js';
import { postApi, type RunsEndpoint } from '../../serve/runs-client.js';

interface EndpointOpts {
  url: string;
  token?: string;
  json?: boolean;
}

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
    const parsed = AlertKindSchema.safeParse(k);
    if (!parsed.success) throw new InvalidArgumentError(`"${k}" is not an alert kind (${AlertKindSchema.options.join(', ')})`);
    return parsed.data;
  });
}

function endpoint(opts: EndpointOpts): RunsEndpoint {
  const token = opts.token ?? (process.env.NDBTOP_TOKEN || undefined);
  return token ? { url: opts.url, token } : { url: opts.url };
}

function print(w: MaintenanceWindow, opts: EndpointOpts): void {
  process.stdout.write(opts.json ? `${JSON.stringify(w)}\n` : `${w.id}\n`);
}

function withEndpoint(command: Command): Command {
  return command
    .option('--url <url>', 'the serving ndbtop (ndbtop serve, or ndbtop record --port)', process.env.NDBTOP_URL || 'http://127.0.0.1:8080/')
    .option('--token <token>', 'its --token (default: NDBTOP_TOKEN)')
    .option('--json', 'print the window as JSON instead of its id');
}

/** `ndbtop maintenance start|stop`: maintenance windows on a serving ndbtop, over its HTTP API (like `ndbtop run`). */
export function registerMaintenance(program: Command): void {
  const cmd = program.command('maintenance').description('open and close maintenance windows on a serving ndbtop (silence chosen alert kinds, mark the charts)');
  withEndpoint(cmd.command('start').description('open a maintenance window; prints its id'))
    .option('--duration <time>', 'close it by itself after this long (90s, 30m, 2h)', parseDuration)
    .option('--silence <kinds>', `alert kinds to silence, comma-separated (default: all): ${AlertKindSchema.options.join(', ')}`, parseKinds)
    .option('--reason <text>', 'what the maintenance is, shown on the charts and in the alert history')
    .action(async (opts: EndpointOpts & { duration?: number; silence?: AlertKind[]; reason?: string }) =>
      print(await postApi<MaintenanceWindow>(endpoint(opts), 'maintenance', { ...(opts.reason ? { reason: opts.reason } : {}), ...(opts.silence ? { silence: opts.silence } : {}), ...(opts.duration ? { durationMs: opts.duration } : {}) }), opts),
    );
  withEndpoint(cmd.command('stop').description('close a maintenance window').argument('<id>')).action(async (id: string, opts: EndpointOpts) =>
    print(await postApi<MaintenanceWindow>(endpoint(opts), `maintenance/${encodeURIComponent(id)}/stop`, {}), opts),
  );
}
