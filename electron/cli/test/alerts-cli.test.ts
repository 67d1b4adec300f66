import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AlertHistory } from '../../contract/schemas/maintenance.js';
import { createEngine } from '../../engine/create-engine.js';
import { waitFor } from '../../engine/test/helpers.js';
import { startServeServer } from '../../serve/serve-server.js';
import { runCli } from './run-cli.js';

const TOKEN = 'alerts-cli-token';

test('ndbtop alerts lists the alerts on from a serving ndbtop; --history every one with how long it lasted; a wrong token is a clear error', async () => {
  const engine = await createEngine({ host: 'serve', actionsEnabled: false, pollIntervalMs: 250, simulator: { scenario: 'idle', dataNodes: 4, speed: 16, sql: false } });
  const sim = engine.simulator;
  assert.ok(sim);
  const server = await startServeServer({ engine, staticDir: '/nonexistent', port: 0, token: TOKEN });
  const url = `http://127.0.0.1:${server.port}/`;
  const alertsOn = async (): Promise<string[]> => (await engine.handlers.getAlertHistory({})).entries.filter((e) => e.clearedAt === null).map((e) => e.kind);
  try {
    await waitFor('four data nodes STARTED', async () => (await engine.handlers.getSnapshot({})).nodes.filter((n) => n.type === 'NDB' && n.status === 'STARTED').length === 4, 30_000);
    sim.model.failNode(3, { autoRestart: false });
    await waitFor('node 3 down', async () => (await alertsOn()).includes('node-down'));

    const on = await runCli(['alerts', '--url', url], { NDBTOP_TOKEN: TOKEN });
    assert.equal(on.code, 0, on.stderr);
    assert.match(on.stdout, /^\d{4}-\d\d-\d\dT\S+Z {2}on {12}critical {2}node-down {2}node 3 {2}Node 3 /m);

    await sim.model.startCluster();
    await waitFor('node 3 back', async () => !(await alertsOn()).includes('node-down'), 60_000);
    const history = await runCli(['alerts', '--history', '--url', url, '--token', TOKEN]);
    assert.equal(history.code, 0, history.stderr);
    assert.match(history.stdout, /^\S+ {2}\d+ s {2,}critical {2}node-down {2}node 3 {2}Node 3 /m, 'over, with how long it lasted');
    // Issue 35: every maintenance window is in the history too, with who opened and closed it.
    const w = await engine.handlers.startMaintenance({ reason: 'disk', silence: ['memory-high'], by: 'ops' });
    await engine.handlers.stopMaintenance({ windowId: w.id, by: 'lead' });
    const windows = await runCli(['alerts', '--history', '--url', url, '--token', TOKEN]);
    assert.match(windows.stdout, new RegExp(`^\\S+Z {2}maintenance {2}${w.id} closed by lead \\(disk\\)\n\\S+Z {2}maintenance {2}${w.id} opened by ops \\(disk\\), until \\S+Z$`, 'm'), 'newest first');
    const json = await runCli(['alerts', '--history', '--json', '--url', url, '--token', TOKEN]);
    const parsed = JSON.parse(json.stdout) as AlertHistory;
    assert.deepEqual(parsed, await engine.handlers.getAlertHistory({}), 'the JSON is the endpoint\'s history');

    const refused = await runCli(['alerts', '--url', url, '--token', 'wrong']);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /\/api\/alerts\/history/);
  } finally {
    await server.close();
    await engine.close();
  }
});
