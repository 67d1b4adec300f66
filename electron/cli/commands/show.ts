import type { Command } from 'commander';
import { MgmClient } from '../../../native-mgm/client/mgm-client.js';
import { formatShow } from '../format-show.js';
import { addConnectOptions, connectstringFrom } from '../options.js';

export function registerShow(program: Command): void {
  addConnectOptions(program.command('show'))
    .description('the cluster as `ndb_mgm -e show` shows it')
    .option('--json', 'print {"mgmd": {...}, "nodes": [...]} with the typed node fields')
    .action(async (opts: { connectstring?: string; timeout: number; json?: boolean }) => {
      const { hosts } = connectstringFrom(opts);
      const client = new MgmClient({ hosts, connectTimeoutMs: opts.timeout, requestTimeoutMs: opts.timeout, reconnect: false });
      try {
        await client.connect();
        const nodes = await client.getStatus();
        const { host, port } = client.state;
        const mgmd = { host: host ?? '', port: port ?? 0 };
        if (opts.json) {
          const session = client.session;
          const out = { mgmd: { ...mgmd, nodeId: session?.mgmdNodeId ?? null, version: session?.server.string ?? null }, nodes };
          process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
        } else {
          process.stdout.write(formatShow(nodes, mgmd));
        }
      } finally {
        client.close();
      }
    });
}
