import type { EngineHost } from '../engine/core/engine-host.js';
import { isRendererBuilt, rendererDistDir } from './http/renderer-dir.js';
import { startServeServer } from './serve-server.js';
import { plainTextWarning, type HttpsFiles } from './transport/https-listener.js';
import type { ListenOptions } from './transport/listen-options.js';

function httpsFiles(opts: ListenOptions): HttpsFiles | undefined {
  return opts.tlsCert !== undefined && opts.tlsKey !== undefined ? { certFile: opts.tlsCert, keyFile: opts.tlsKey } : undefined;
}

/**
 * Serves `engine` until SIGINT/SIGTERM, then closes the server (sockets included) and the engine (which
 * flushes a recording). `describe` lines are printed after the URL.
 */
/** `onListening` runs once the banner is out (a progress bar drawn after it stays the terminal's last line). */
export async function serveUntilSignalled(engine: EngineHost, opts: ListenOptions, describe: string[], onListening?: () => void): Promise<void> {
  const staticDir = rendererDistDir();
  let server;
  try {
    const https = httpsFiles(opts);
    server = await startServeServer({
      engine,
      staticDir,
      host: opts.host,
      port: opts.port,
      token: opts.token,
      metricsOnly: opts.metricsOnly,
      allowChanges: opts.allowChanges === true,
      allowedHosts: opts.allowHost ?? [],
      ...(https ? { https } : {}),
    });
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
    ...(server.notReady === null ? [] : [`  cluster: no status yet: ${server.notReady}`]),
    ...(opts.metricsOnly
      ? [`  endpoints: /metrics only (--metrics-only: no dashboard, API or WebSocket)`]
      : [
          `  viewer changes (clusters, settings, profiles, acknowledgements, maintenance windows): ${opts.allowChanges ? 'ALLOWED' : 'refused (--allow-changes to allow)'}`,
          `  endpoints: / (dashboard), /api/snapshot, /api/export, /metrics, WebSocket /ws`,
          ...(isRendererBuilt(staticDir) ? [] : [`  note: no built dashboard in ${staticDir} (npm run build); the API endpoints work`]),
        ]),
  ];
  out(banner.join('\n'));
  const warning = plainTextWarning(opts.host, httpsFiles(opts));
  if (warning !== null) process.stderr.write(`ndbtop serve: ${warning}\n`);
  onListening?.();

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
