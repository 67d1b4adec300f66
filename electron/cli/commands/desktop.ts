import { spawn } from 'node:child_process';
import type { Command } from 'commander';
import { packageRoot } from '../../engine/core/package-root.js';
import { locateElectron } from '../electron-binary.js';
import { connectstringFrom, intOption } from '../options/options.js';
import { addMgmTlsOptions, mgmTlsArgs, mgmTlsFrom, type TlsCliOptions } from '../options/tls-options.js';
import { addSqlOptions, sqlArgs, sqlSourceFrom, type SqlCliOptions } from '../options/sql-options.js';

interface DesktopOpts extends TlsCliOptions, SqlCliOptions {
  connectstring?: string;
  record?: string;
  replay?: string;
  poll?: number;
  readOnly?: boolean;
  fallback: boolean;
  port: number;
}

function forwarded(opts: DesktopOpts): string[] {
  return [
    ...(opts.connectstring ? ['-c', opts.connectstring] : []),
    ...(opts.record ? ['--record', opts.record] : []),
    ...(opts.replay ? ['--replay', opts.replay] : []),
    ...(opts.poll ? ['--poll', String(opts.poll)] : []),
    ...(opts.readOnly ? ['--read-only'] : []),
    ...mgmTlsArgs(opts),
    // The password itself never goes on a command line: Electron reads the file, or inherits NDBTOP_SQL_PASSWORD.
    ...sqlArgs(opts),
  ];
}

/**
 * `ndbtop` with no sub-command: the desktop app. Where Electron cannot run (no binary and no network to fetch
 * it, as on a headless server), the same dashboard is served to a browser instead, unless --no-fallback.
 */
export function registerDesktop(program: Command): void {
  addSqlOptions(addMgmTlsOptions(program))
    .option('-c, --connectstring <connectstring>', 'management servers (default: NDB_CONNECTSTRING, else the built-in simulated cluster)')
    .option('--record <file>', 'append every snapshot change and event to FILE as JSON lines')
    .option('--replay <file>', 'open a recording instead of a live cluster')
    .option('--poll <ms>', 'status poll interval in milliseconds', intOption(100, 60_000))
    .option('--read-only', 'refuse operator actions')
    .option('--no-fallback', 'fail when Electron cannot start instead of serving the dashboard to a browser')
    .option('--port <port>', 'port of the browser fallback', intOption(0, 65_535), 8080)
    .action(async (opts: DesktopOpts) => {
      // A typo in -c is reported here, not as a window that never connects.
      if (opts.connectstring) connectstringFrom(opts);
      // So are a bad --sql URL and an unreadable password file.
      const sql = await sqlSourceFrom(opts);
      const electron = locateElectron(true);
      if ('path' in electron) {
        // Electron loads `main` (dist/electron/main.js) from the package root's package.json.
        const child = spawn(electron.path, [packageRoot()?.dir ?? process.cwd(), ...forwarded(opts)], { stdio: 'inherit' });
        const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? 1)));
        process.exitCode = code;
        return;
      }
      if (!opts.fallback) throw new Error(`cannot start the desktop app: ${electron.missing}`);
      process.stderr.write(`ndbtop: cannot start the desktop app: ${electron.missing}.\nndbtop: serving the same dashboard to your browser instead.\n`);
      const connectstring = opts.connectstring ?? (process.env.NDB_CONNECTSTRING || undefined);
      if (opts.replay) throw new Error('--replay without Electron: use `ndbtop replay FILE` to serve a recording');
      const [{ createEngine }, { serveUntilSignalled }] = await Promise.all([import('../../engine/create-engine.js'), import('../../serve/serve-cli.js')]);
      const engine = await createEngine({
        host: 'serve',
        clusters: [{ ...(connectstring === undefined ? {} : { connectstring }), tls: mgmTlsFrom(opts), ...(sql ? { sql } : {}) }],
        actionsEnabled: opts.readOnly !== true,
        recordFile: opts.record,
        pollIntervalMs: opts.poll,
      });
      const source = connectstring === undefined ? `cluster: the built-in SIMULATED cluster at ${engine.simulator?.connectstring ?? '?'}` : `cluster: ${connectstring}`;
      await serveUntilSignalled(engine, { host: '127.0.0.1', port: opts.port }, [source, 'open the URL above in a browser; Ctrl-C stops']);
    });
}
