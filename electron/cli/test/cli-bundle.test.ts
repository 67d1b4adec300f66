import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { buildCli, loadedAtStart } from '../../../scripts/cli-bundle.js';

// What a command needs only once it runs stays out of what every `ndbtop` command loads first: `ndbtop show` in a
// script's loop must not pay for the engine, serve mode, the simulator or zod (see scripts/cli-bundle.ts).
const ONLY_WHEN_RUN = [
  'node_modules/zod/',
  'node_modules/mysql2/',
  'node_modules/ws/',
  'node_modules/prom-client/',
  'electron/engine/create-engine.ts',
  'electron/engine/recording/replay.ts',
  'electron/engine/features/rolling/plan/plan-store.ts',
  'electron/serve/serve-server.ts',
  'native-mgm/sim/simulator.ts',
  'ndbinfo/sim/index.ts',
  'ndbinfo/client/read-once.ts',
];

test('the CLI bundle loads the option parsing and the protocol client at start, the engine, servers, simulator and zod only in the commands that run them', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ndbtop-cli-bundle-'));
  try {
    const { metafile } = await buildCli(dir, { metafile: true, write: false });
    assert.ok(metafile);
    const atStart = loadedAtStart(metafile);
    const inBuild = Object.keys(metafile.inputs);
    for (const path of ['electron/cli/ndbtop.ts', 'node_modules/commander/', 'native-mgm/client/mgm-client.ts', 'electron/cli/commands/rolling-restart.ts']) {
      assert.ok(atStart.some((f) => f.includes(path)), `${path} is loaded at start`);
    }
    for (const path of ONLY_WHEN_RUN) {
      assert.ok(inBuild.some((f) => f.includes(path)), `${path} is in the bundle`);
      assert.deepEqual(atStart.filter((f) => f.includes(path)), [], `${path} is loaded only by the command that runs it`);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
