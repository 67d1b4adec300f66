import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { addListenOptions, checkListenOptions, type ListenOptions } from '../../serve/transport/listen-options.js';
import { addFailoverOption, connectstringFrom, intOption, type FailoverOpts } from '../options/options.js';
import { addMgmTlsOptions, mgmTlsFrom, type TlsCliOptions } from '../options/tls-options.js';
import { addCollapseOptions, collapseConfig, type CollapseOpts } from '../options/run-options.js';
import { addSqlOptions, sqlSourceFrom, type SqlCliOptions } from '../options/sql-options.js';

interface ServeOpts extends ListenOptions, TlsCliOptions, CollapseOpts, FailoverOpts, SqlCliOptions {
  connectstring?: string;
  allowActions?: boolean;
  record?: string;
  poll?: number;
}

export function registerServe(program: Command): void {
  const command = program
    .command('serve')
    .description('serve the dashboard to browsers: HTTP + WebSocket, /api/snapshot, Prometheus /metrics')
    .option('-c, --connectstring <connectstring>', 'management servers (default: NDB_CONNECTSTRING, else the built-in simulated cluster)')
    .option('--allow-actions', 'let browsers stop, start and restart nodes, and change the server as --allow-changes does (off by default)')
    .option('--record <file>', 'append every snapshot change and event to FILE as JSON lines')
    .option('--poll <ms>', 'status poll interval in milliseconds', intOption(100, 60_000))
    .option('--metrics-only', 'a headless Prometheus exporter: serve /metrics only, no dashboard, API or WebSocket');
  addSqlOptions(addMgmTlsOptions(addListenOptions(addCollapseOptions(addFailoverOption(command))), 'mgm-tls')).action(async (opts: ServeOpts) => {
    checkListenOptions(command, opts);
    // Whoever may stop nodes may also change what is watched.
    if (opts.allowActions) opts.allowChanges = true;
    const connectstring = opts.connectstring ?? (process.env.NDB_CONNECTSTRING || undefined);
    // A typo is a usage error now (exit 2), not a dashboard that never connects.
    if (connectstring !== undefined) connectstringFrom({ connectstring });
    const sql = await sqlSourceFrom(opts);
    const [{ createEngine }, { serveUntilSignalled }] = await Promise.all([import('../../engine/create-engine.js'), import('../../serve/serve-cli.js')]);
    const engine = await createEngine({
      host: 'serve',
      // The token is a secret no SQL node may echo into the page, /metrics or the recording.
      clusters: [{ ...(connectstring === undefined ? {} : { connectstring }), tls: mgmTlsFrom(opts, 'mgm-tls'), ...(sql ? { sql: { ...sql, secrets: opts.token === undefined ? [] : [opts.token] } } : {}) }],
      actionsEnabled: opts.allowActions === true,
      // A rolling restart in progress survives a restart of serve, like the CLI's (same folder).
      rollingStateDir: join(homedir(), '.ndbtop'),
      recordFile: opts.record,
      pollIntervalMs: opts.poll,
      collapse: collapseConfig(opts),
      ...(opts.failover ? { failover: opts.failover } : {}),
    });
    const source =
      connectstring === undefined
        ? `cluster: the built-in SIMULATED cluster (no -c or NDB_CONNECTSTRING given), at ${engine.simulator?.connectstring ?? '?'}`
        : `cluster: ${connectstring}`;
    await serveUntilSignalled(engine, opts, [
      source,
      `operator actions: ${opts.allowActions ? 'ENABLED (--allow-actions)' : 'disabled (--allow-actions to enable)'}`,
      ...(opts.record ? [`recording to ${opts.record}`] : []),
    ]);
  });
}
