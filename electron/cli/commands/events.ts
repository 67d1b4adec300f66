import type { Command } from 'commander';
import { EventStream } from '../../../native-mgm/client/event-stream.js';
import { MONITOR_FILTER, type Category, CATEGORIES } from '../../../native-mgm/events/catalogue.js';
import type { ClusterEvent } from '../../../native-mgm/types.js';
import { eventText } from '../../engine/facts/events/event-text.js';
import { formatConnectstring } from '../../../native-mgm/connectstring.js';
import { withDeadline } from '../deadline.js';
import { addConnectOptions, connectstringFrom } from '../options/options.js';
import { printText } from '../format/terminal-text.js';
import { escapedJson } from '../../contract/page-safe/outside-text.js';
import { addMgmTlsOptions, mgmTlsFrom, type TlsCliOptions } from '../options/tls-options.js';
import { InvalidArgumentError } from 'commander';

function parseFilter(text: string): Partial<Record<Category, number>> {
  const out: Partial<Record<Category, number>> = {};
  for (const item of text.split(/[ ,]/).filter((s) => s !== '')) {
    const m = /^([A-Za-z]+)[=:](\d{1,2})$/.exec(item);
    const category = m?.[1]?.toUpperCase() as Category | undefined;
    const level = Number(m?.[2]);
    if (!m || !category || !CATEGORIES.includes(category) || level > 15) {
      throw new InvalidArgumentError(`bad filter item "${item}": expected CATEGORY=LEVEL (0..15), categories ${CATEGORIES.join(' ')}`);
    }
    out[category] = level;
  }
  return out;
}

/** The same sentence the dashboard's event log shows, after the receipt time and the severity. */
function line(e: ClusterEvent): string {
  return `${new Date(e.receivedAt).toISOString()}  ${(e.severity ?? '-').padEnd(7)}  ${eventText(e)}\n`;
}

export function registerEvents(program: Command): void {
  addMgmTlsOptions(addConnectOptions(program.command('events')))
    .description('print cluster events as they arrive (until interrupted)')
    .option('--json', 'one JSON object per line')
    .option('--filter <levels>', 'categories and levels, e.g. "STARTUP=15 STATISTICS=8"', parseFilter)
    .action(async (opts: { connectstring?: string; timeout: number; json?: boolean; filter?: Partial<Record<Category, number>> } & TlsCliOptions) => {
      const { hosts } = connectstringFrom(opts);
      const stream = new EventStream({ hosts, connectTimeoutMs: opts.timeout, requestTimeoutMs: opts.timeout, filter: opts.filter ?? MONITOR_FILTER, tls: mgmTlsFrom(opts) });
      stream.events.on('event', (e) => (opts.json ? process.stdout.write(`${escapedJson(e)}\n`) : printText(process.stdout, line(e))));
      stream.events.on('warning', (w) => printText(process.stderr, `ndbtop: warning: ${w.message}\n`));
      stream.events.on('state', (s) => {
        if (s.status === 'reconnecting') printText(process.stderr, `ndbtop: event stream lost (${s.lastError ?? 'unknown'}); reconnecting\n`);
        if (s.status === 'connected') {
          const tls = stream.tls;
          const how = tls?.secured ? (tls.protocol ?? 'TLS') : `clear text${tls?.clearTextReason ? `: ${tls.clearTextReason}` : ''}`;
          printText(process.stderr, `ndbtop: listening to ${s.host}:${s.port} (${how})\n`);
        }
      });
      // Interrupting while still connecting is a clean stop too (exit 0), not a death by signal.
      const interrupted = new Promise<void>((resolve) => {
        const stop = (): void => {
          stream.close();
          resolve();
        };
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
      printText(process.stderr, `ndbtop: connecting to ${formatConnectstring(hosts)}\n`);
      // --timeout bounds getting subscribed as a whole; after that the stream runs until interrupted.
      const subscribed = withDeadline(opts.timeout, 'ndbtop events: subscribing', (signal) => stream.start(signal)).catch((err: unknown) => {
        stream.close();
        throw err;
      });
      await Promise.race([subscribed, interrupted]);
      await interrupted;
    });
}
