import { join } from 'node:path';
import { createEngine } from '../engine/create-engine.js';
import type { EngineHost } from '../engine/core/engine-host.js';
import { createReplayEngine } from '../engine/recording/replay.js';
import { sqlSourceFrom } from '../cli/options/sql-options.js';
import { FileSecretStore } from '../engine/core/secrets/file-secret-store.js';
import type { SecretCipher, SecretStore } from '../engine/core/secrets/secret-store.js';
import type { DesktopArgs } from './desktop-args.js';

/**
 * The engine behind the desktop window: a recording with --replay; otherwise the cluster from -c or
 * NDB_CONNECTSTRING, or the built-in simulated cluster when neither is given. Settings and saved connection
 * profiles persist in the user's data folder; profiles' SQL passwords beside them, encrypted by `keychain` (the OS
 * keychain through Electron's safeStorage; null where the OS has none: then they cannot be saved).
 */
export async function startDesktopEngine(args: DesktopArgs, userDataDir: string, keychain: SecretCipher | null = null): Promise<EngineHost> {
  if (args.replayFile !== undefined) return createReplayEngine({ file: args.replayFile });
  const sql = await sqlSourceFrom(args.sql ?? {}, process.env);
  const secrets = keychain ? openSecrets(join(userDataDir, SECRETS_FILE), keychain) : undefined;
  return createEngine({
    host: 'desktop',
    clusters: [{ ...(args.connectstring === undefined ? {} : { connectstring: args.connectstring }), tls: args.tls, ...(sql ? { sql } : {}) }],
    actionsEnabled: args.actionsEnabled,
    recordFile: args.recordFile,
    pollIntervalMs: args.pollIntervalMs,
    settingsFile: join(userDataDir, 'settings.json'),
    ...(secrets ? { secrets } : {}),
    rollingStateDir: userDataDir,
  });
}

/** Ciphertext only (base64), mode 0600. */
export const SECRETS_FILE = 'sql-passwords.json';

function openSecrets(file: string, keychain: SecretCipher): SecretStore {
  const store = new FileSecretStore(file, keychain);
  // Names the file and why, never its content.
  if (store.loadError) console.warn(`ndbtop: ${store.loadError}; stored SQL passwords must be typed again`);
  return store;
}
