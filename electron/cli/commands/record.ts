import type { Command } from 'commander';
import { rendererDistDir } from '../../serve/http/renderer-dir.js';
import type { ServeServer } from '../../serve/serve-server.js';
import { addFailoverOption, connectstringFrom, intOption, type FailoverOpts } from '../options/options.js';
import { testInterval } from '../options/test-intervals.js';
import { addSqlOptions, sqlSourceFrom, type SqlCliOptions } from '../options/sql-options.js';
import { addCollapseOptions, collapseConfig, collectTag, durationOption, type CollapseOpts } from '../options/run-options.js';

interface RecordOpts extends CollapseOpts, FailoverOpts, SqlCliOptions {
  connectstring?: string;
  out: string;
  duration?: number;
  poll?: number;
  port?: number;
  host: string;
  token?: string;
  run?: string;
  tag?: Record<string, string>;
}

/**
 * `ndbtop record`: the engine without a UI, appending everything to a recording until the duration is over or
 * SIGINT/SIGTERM, then closing it cleanly (the recorder's last flush). With `--port` it also serves the runs
 * endpoint (and the dashboard) so the benchmark script can mark its runs; `--run` makes the whole recording one.
 */
export function registerRecord(program: Command): void {
  const command = program
    .command('record')
    .description('record a cluster without a UI (for benchmark pipelines); `ndbtop report FILE` summarises the runs')
    .option('-c, --connectstring <connectstring>', 'management servers (default: NDB_CONNECTSTRING, else the built-in simulated cluster)')
    .requiredOption('--out <file>', 'the recording to append to (JSON lines)')
    .option('--duration <duration>', 'stop after this long (90s, 10m, 1h); default: until SIGINT/SIGTERM', durationOption)
    .option('--poll <ms>', 'status poll interval in milliseconds', intOption(100, 60_000))
    .option('--port <port>', 'also serve the runs endpoint (POST /api/runs) and the dashboard on this port (0: any free one)', intOption(0, 65_535))
    .option('--host <address>', 'address for --port; anything but loopback requires --token', '127.0.0.1')
    .option('--token <token>', 'secret every request to --port must present')
    .option('--run <name>', 'mark the whole recording as one run of this name')
    .option('--tag <key=value>', 'a tag of the --run run (repeatable)', collectTag);
  addSqlOptions(addCollapseOptions(addFailoverOption(command))).action(async (opts: RecordOpts) => {
    const connectstring = opts.connectstring ?? (process.env.NDB_CONNECTSTRING || undefined);
    if (connectstring !== undefined) connectstringFrom({ connectstring });
    const sql = await sqlSourceFrom(opts);
    const [{ createEngine }, { startServeServer }] = await Promise.all([import('../../engine/create-engine.js'), import('../../serve/serve-server.js')]);
    const engine = await createEngine({
      host: 'serve',
      clusters: [{ ...(connectstring === undefined ? {} : { connectstring }), ...(sql ? { sql } : {}) }],
      recordFile: opts.out,
      ...testInterval('NDBTOP_KEYFRAME_MS', 'keyframeMs'),
      pollIntervalMs: opts.poll,
      collapse: collapseConfig(opts),
      ...(opts.failover ? { failover: opts.failover } : {}),
    });
    let server: ServeServer | null = null;
    const out = (line: string): boolean => process.stdout.write(`${line}\n`);
    try {
      if (opts.port !== undefined) server = await startServeServer({ engine, staticDir: rendererDistDir(), host: opts.host, port: opts.port, token: opts.token });
      const runId = opts.run ? (await engine.handlers.startRun({ name: opts.run, tags: opts.tag ?? {} })).id : null;
      out(
        [
          `ndbtop record: recording ${connectstring ?? `the built-in SIMULATED cluster at ${engine.simulator?.connectstring ?? '?'}`} to ${opts.out}${opts.duration ? ` for ${opts.duration / 1000} s` : ' until interrupted'}`,
          ...(server ? [`  listening on ${server.url}`, '  runs endpoint: POST /api/runs, /api/runs/<id>/phase, /api/runs/<id>/stop'] : []),
          ...(runId ? [`  run ${runId}: ${opts.run}`] : []),
        ].join('\n'),
      );
      const signal = await new Promise<string>((resolve) => {
        const timer = opts.duration ? setTimeout(() => resolve('duration'), opts.duration) : null;
        const stop = (s: NodeJS.Signals): void => {
          if (timer) clearTimeout(timer);
          resolve(s);
        };
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
      if (runId) await engine.handlers.stopRun({ runId }).catch(() => undefined);
      out(`ndbtop record: ${signal === 'duration' ? 'duration over' : signal}, closing ${opts.out}`);
    } finally {
      await server?.close();
      await engine.close();
    }
  });
}
