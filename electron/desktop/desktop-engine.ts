import { join } from 'node:path';
import { createEngine } from '../engine/create-engine.js';
import type { EngineHost } from '../engine/engine-host.js';
import { createReplayEngine } from '../engine/recording/replay.js';
import { sqlSourceFrom } from '../cli/sql-options.js';
import type { DesktopArgs } from './desktop-args.js';

/**
 * The engine behind the desktop window: a recording with --replay; otherwise the cluster from -c or
 * NDB_CONNECTSTRING, or the built-in simulated cluster when neither is given. Settings and saved connection
 * profiles persist in the user's data folder.
 */
export async function startDesktopEngine(args: DesktopArgs, userDataDir: string): Promise<EngineHost> {
  if (args.replayFile !== undefined) return createReplayEngine({ file: args.replayFile });
  const sql = await sqlSourceFrom(args.sql ?? {}, process.env);
  return createEngine({
    host: 'desktop',
    clusters: [{ ...(args.connectstring === undefined ? {} : { connectstring: args.connectstring }), tls: args.tls, ...(sql ? { sql } : {}) }],
    actionsEnabled: args.actionsEnabled,
    recordFile: args.recordFile,
    pollIntervalMs: args.pollIntervalMs,
    settingsFile: join(userDataDir, 'settings.json'),
    rollingStateDir: userDataDir,
  });
}
