import type { Command } from 'commander';
import { MgmClient } from '../../../native-mgm/client/mgm-client.js';
import { withDeadline } from '../deadline.js';
import { formatShow } from '../format-show.js';
import { addConnectOptions, connectstringFrom } from '../options.js';
import { printText, terminalJson } from '../terminal-text.js';

export function registerShow(program: Command): void {
  addConnectOptions(program.command('show'))
    .description('the cluster as `ndb_mgm -e show` shows it')
    .option('--json', 'print {"mgmd": {...}, "nodes": [...]} with the typed node fields')
    .addHelpText('after', '\n--timeout is a deadline for the whole command: connecting, the session set-up and get status.')
    .action(async (opts: { connectstring?: string; timeout: number; json?: boolean }) => {
      const { hosts } = connectstringFrom(opts);
      const client = new MgmClient({ hosts, connectTimeoutMs: opts.timeout, requestTimeoutMs: opts.timeout, reconnect: false });
      try {
        const nodes = await withDeadline(opts.timeout, 'ndbtop show', async (signal) => {
          await client.connect(signal);
          return client.getStatus(undefined, { signal });
        });
        const { host, port } = client.state;
        const mgmd = { host: host ?? '', port: port ?? 0 };
        if (opts.json) {
          const session = client.session;
          const out = { mgmd: { ...mgmd, nodeId: session?.mgmdNodeId ?? null, version: session?.server.string ?? null }, nodes };
          process.stdout.write(`${terminalJson(out, 2)}\n`);
        } else {
          printText(process.stdout, formatShow(nodes, mgmd));
        }
      } finally {
        client.close();
      }
    });
}
