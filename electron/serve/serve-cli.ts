import { InvalidArgumentError, Option, type Command } from 'commander';
import type { EngineHost } from '../engine/engine-host.js';
import { isRendererBuilt, rendererDistDir } from './renderer-dir.js';
import { checkServeOptions, ServeConfigError, startServeServer } from './serve-server.js';
import { plainTextWarning, type HttpsFiles } from './https-listener.js';

export interface ListenOptions {
  port: number;
  host: string;
  token?: string;
  tlsCert?: string;
  tlsKey?: string;
  metricsOnly?: boolean;
}

function port(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 65_535) throw new InvalidArgumentError('expected a port number from 0 to 65535');
  return Number(value);
}

/** --port/--host/--token, shared by `serve` and `replay`. */
export function addListenOptions(command: Command): Command {
  return command
    .option('--port <port>', 'HTTP port (0: any free port)', port, 8080)
    .option('--host <address>', 'address to listen on; anything but loopback requires --token', '127.0.0.1')
    // From the environment too, so a service manager can pass it without showing it in the process list.
    .addOption(new Option('--token <token>', 'secret every request and WebSocket must present (Bearer header or ?token=)').env('NDBTOP_TOKEN'))
    .option('--tls-cert <file>', 'serve HTTPS and WSS with this certificate (PEM, with its chain); needs --tls-key')
    .option('--tls-key <file>', 'private key (PEM) of --tls-cert');
}

function httpsFiles(opts: ListenOptions): HttpsFiles | undefined {
  return opts.tlsCert !== undefined && opts.tlsKey !== undefined ? { certFile: opts.tlsCert, keyFile: opts.tlsKey } : undefined;
}

/** Refuses a non-loopback bind without a token before anything is started: a usage error, exit code 2. */
export function checkListenOptions(command: Command, opts: ListenOptions): void {
  try {
    checkServeOptions(opts.host, opts.token);
    if ((opts.tlsCert === undefined) !== (opts.tlsKey === undefined)) throw new ServeConfigError('--tls-cert and --tls-key go together');
  } catch (err) {
    if (err instanceof ServeConfigError) command.error(`error: ${err.message}`, { exitCode: 2, code: 'ndbtop.serveConfig' });
    throw err;
  }
}

/**
 * Serves `engine` until SIGINT/SIGTERM, then closes the server (sockets included) and the engine (which
 * flushes a recording). `describe` lines are printed after the URL.
 */
export async function serveUntilSignalled(engine: EngineHost, opts: ListenOptions, describe: string[]): Promise<void> {
  const staticDir = rendererDistDir();
  let server;
  try {
    const https = httpsFiles(opts);
    server = await startServeServer({ engine, staticDir, host: opts.host, port: opts.port, token: opts.token, metricsOnly: opts.metricsOnly, ...(https ? { https } : {}) });
  } catch (err) {
    await engine.close();
    throw err;
  }
  const out = (line: string): boolean => process.stdout.write(`${line}\n`);
  // One write, so a script (or a test) reading the URL line also has the rest of the banner.
  const banner = [
    // An exporter's output ends up in a service's log: its line carries no token.
    `ndbtop serve: listening on ${opts.metricsOnly ? `${server.url.split('?')[0]}metrics${opts.token === undefined ? '' : ' (token required)'}` : server.url}`,
    ...describe.map((line) => `  ${line}`),
    ...(opts.metricsOnly
      ? [`  endpoints: /metrics only (--metrics-only: no dashboard, API or WebSocket)`]
      : [
          `  endpoints: / (dashboard), /api/snapshot, /metrics, WebSocket /ws`,
          ...(isRendererBuilt(staticDir) ? [] : [`  note: no built dashboard in ${staticDir} (npm run build); the API endpoints work`]),
        ]),
  ];
  out(banner.join('\n'));
  const warning = plainTextWarning(opts.host, httpsFiles(opts));
  if (warning !== null) process.stderr.write(`ndbtop serve: ${warning}\n`);

  await new Promise<void>((resolve) => {
    const stop = (signal: NodeJS.Signals): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      out(`ndbtop serve: ${signal}, shutting down`);
      void server.close().then(() => engine.close()).then(resolve, resolve);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
