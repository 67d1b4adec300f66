import type { Command } from 'commander';
import type { RunsEndpoint } from '../serve/runs-client.js';
import { escapedJson, visibleLine } from '../contract/page-safe/outside-text.js';

/** Options of a command that talks to a serving ndbtop over its HTTP API. */
export interface EndpointOpts {
  url: string;
  token?: string;
  json?: boolean;
}

export function endpointFrom(opts: EndpointOpts): RunsEndpoint {
  const token = opts.token ?? (process.env.NDBTOP_TOKEN || undefined);
  return token ? { url: opts.url, token } : { url: opts.url };
}

/** `--url`, `--token` and `--json` (saying what it prints as JSON). */
export function withEndpoint(command: Command, json: string): Command {
  return command
    .option('--url <url>', 'the serving ndbtop (ndbtop serve, or ndbtop record --port)', process.env.NDBTOP_URL || 'http://127.0.0.1:8080/')
    .option('--token <token>', 'its --token (default: NDBTOP_TOKEN)')
    .option('--json', json);
}

/** What a mark (run, maintenance window) prints: its id, or all of it as JSON; the server's words under the outside-text rule. */
export function printMark(mark: { id: string }, opts: EndpointOpts): void {
  process.stdout.write(opts.json ? `${escapedJson(mark)}\n` : `${visibleLine(mark.id)}\n`);
}
