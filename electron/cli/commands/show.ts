import type { Command } from 'commander';
import { MgmClient } from '../../../native-mgm/client/mgm-client.js';
import type { TlsSessionInfo } from '../../../native-mgm/index.js';
import { withDeadline } from '../deadline.js';
import { formatShow } from '../format/format-show.js';
import { addConnectOptions, connectstringFrom } from '../options/options.js';
import { printText } from '../format/terminal-text.js';
import { escapedJson } from '../../contract/page-safe/outside-text.js';
import { addMgmTlsOptions, mgmTlsFrom, type TlsCliOptions } from '../options/tls-options.js';

/** How the session was secured, after ndb_mgm's picture, so a script or an operator sees TLS or clear text. */
function tlsLine(tls: TlsSessionInfo | null): string {
  if (tls === null) return 'Session: clear text';
  if (!tls.secured) return `Session: clear text (${tls.clearTextReason ?? 'no TLS'})`;
  const server = tls.server;
  return `Session: ${tls.protocol ?? 'TLS'}${server ? `, server certificate ${server.subject}, expires ${new Date(server.validTo).toISOString().slice(0, 10)}` : ''}`;
}

export function registerShow(program: Command): void {
  addMgmTlsOptions(addConnectOptions(program.command('show')))
    .description('the cluster as `ndb_mgm -e show` shows it')
    .option('--json', 'print {"mgmd": {...}, "nodes": [...]} with the typed node fields')
    .addHelpText('after', '\n--timeout is a deadline for the whole command: connecting, the session set-up and get status.')
    .action(async (opts: { connectstring?: string; timeout: number; json?: boolean } & TlsCliOptions) => {
      const { hosts } = connectstringFrom(opts);
      const client = new MgmClient({ hosts, connectTimeoutMs: opts.timeout, requestTimeoutMs: opts.timeout, reconnect: false, tls: mgmTlsFrom(opts) });
      try {
        const nodes = await withDeadline(opts.timeout, 'ndbtop show', async (signal) => {
          await client.connect(signal);
          return client.getStatus(undefined, { signal });
        });
        const { host, port } = client.state;
        const mgmd = { host: host ?? '', port: port ?? 0 };
        if (opts.json) {
          const session = client.session;
          const out = { mgmd: { ...mgmd, nodeId: session?.mgmdNodeId ?? null, version: session?.server.string ?? null, tls: client.tls }, nodes };
          process.stdout.write(`${escapedJson(out, 2)}\n`);
        } else {
          printText(process.stdout, formatShow(nodes, mgmd));
          printText(process.stdout, `${tlsLine(client.tls)}\n`);
        }
      } finally {
        client.close();
      }
    });
}
