import type { Command } from 'commander';
import { MgmClient } from '../../../native-mgm/client/mgm-client.js';
import { withDeadline } from '../deadline.js';
import { formatConfig } from '../format/format-config.js';
import { addConnectOptions, connectstringFrom, intOption } from '../options/options.js';
import { printText } from '../format/terminal-text.js';
import { escapedJson } from '../../contract/page-safe/outside-text.js';
import { addMgmTlsOptions, mgmTlsFrom, type TlsCliOptions } from '../options/tls-options.js';

interface ConfigOpts extends TlsCliOptions {
  connectstring?: string;
  timeout: number;
  json?: boolean;
  node?: number;
}

export function registerConfig(program: Command): void {
  addMgmTlsOptions(addConnectOptions(program.command('config')))
    .description("the cluster's configuration as the management server hands it out (get config_v2), grouped by section like ndb_config")
    .option('--json', 'print {"name", "generation", "primaryMgmd", "nodes": [{"nodeId", "type", "hostname", "nodeGroup", "params"}], "connections": [...]}')
    .option('--node <id>', 'only this node (and its connections)', intOption(1, 255))
    .action(async (opts: ConfigOpts, command: Command) => {
      const { hosts } = connectstringFrom(opts);
      const client = new MgmClient({ hosts, connectTimeoutMs: opts.timeout, requestTimeoutMs: opts.timeout, reconnect: false, tls: mgmTlsFrom(opts) });
      try {
        const config = await withDeadline(opts.timeout, 'ndbtop config', async (signal) => {
          await client.connect(signal);
          return client.getConfig({}, { signal });
        });
        const nodes = opts.node === undefined ? config.nodes : config.nodes.filter((n) => n.nodeId === opts.node);
        if (nodes.length === 0) command.error(`error: node ${opts.node} is not in the configuration`, { exitCode: 2 });
        const connections = opts.node === undefined ? config.connections : config.connections.filter((c) => c.nodeId1 === opts.node || c.nodeId2 === opts.node);
        // Parameter values and host names come from the server: escaped for the terminal like every output.
        if (opts.json) process.stdout.write(`${escapedJson({ ...config, nodes, connections }, 2)}\n`);
        else printText(process.stdout, formatConfig(config, nodes));
      } finally {
        client.close();
      }
    });
}
