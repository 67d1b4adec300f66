import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AlertHistory, MaintenanceWindow } from '../../contract/schemas/maintenance.js';
import { createEngine } from '../../engine/create-engine.js';
import { waitFor } from '../../engine/test/helpers.js';
import { startServeServer } from '../serve-server.js';
import { runCli } from '../../cli/test/run-cli.js';
import { EVENT_TYPES_BY_NAME } from '../../../native-mgm/index.js';

const TOKEN = 'maintenance-test-token';

test('a maintenance window from the CLI silences the chosen kinds (history keeps them, marked), not the others; HTTP lists and stops it', async () => {
  const engine = await createEngine({ host: 'serve', actionsEnabled: false, pollIntervalMs: 500, simulator: { scenario: 'idle', dataNodes: 4, speed: 10 } });
  const sim = engine.simulator;
  assert.ok(sim);
  const server = await startServeServer({ engine, staticDir: '/nonexistent', port: 0, token: TOKEN });
  const base = `http://127.0.0.1:${server.port}`;
  const auth = { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' };
  try {
    await waitFor('four data nodes STARTED', async () => (await engine.handlers.getSnapshot({})).nodes.filter((n) => n.type === 'NDB' && n.status === 'STARTED').length === 4, 30_000);
    assert.equal((await fetch(`${base}/api/maintenance`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })).status, 401, 'the token rules of run marks');

    // Beside maintenance, the rolling restart: with the token but without --allow-actions, planning and acting are 403.
    let stops = 0;
    const off = sim.model.onEvent((e) => (stops += e.type === EVENT_TYPES_BY_NAME.get('NDBStopStarted')?.id ? 1 : 0));
    const rolling = async (path: string, body: unknown): Promise<{ status: number; text: string }> => {
      const res = await fetch(`${base}/api/rolling-restart${path}`, { method: 'POST', headers: auth, body: JSON.stringify(body) });
      return { status: res.status, text: await res.text() };
    };
    const planned = await rolling('', { order: 'node-group', pauseMs: 0 });
    assert.equal(planned.status, 403, planned.text);
    assert.match(planned.text, /allow-actions/);
    for (const action of ['start', 'resume', 'abort']) assert.equal((await rolling(`/any-plan/${action}`, {})).status, 403, action);
    assert.equal(await (await fetch(`${base}/api/rolling-restart`, { headers: auth })).json(), null, 'reading is open, and no plan was made');
    off();
    assert.equal(stops, 0, 'no node was restarted');
    assert.ok([...sim.model.data.values()].every((n) => n.status === 'STARTED'));

    const cli = await runCli(['maintenance', 'start', '--silence', 'node-down,node-group-degraded', '--reason', 'replace disk on node 3', '--duration', '30m', '--url', base, '--json'], { NDBTOP_TOKEN: TOKEN });
    assert.equal(cli.code, 0, cli.stderr);
    const window = JSON.parse(cli.stdout) as MaintenanceWindow;
    assert.deepEqual([window.reason, window.silence, window.end], ['replace disk on node 3', ['node-down', 'node-group-degraded'], null]);
    assert.ok(window.until !== null && window.until - window.start === 30 * 60_000);
    const bad = await runCli(['maintenance', 'start', '--silence', 'node-dwn', '--url', base, '--token', TOKEN]);
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /"node-dwn" is not an alert kind/);

    // A crash during the window: node-down and the degraded group are silenced; arbitration is not a chosen kind.
    sim.model.failNode(3, { autoRestart: false });
    const history = await waitFor('the silenced alerts in the history', async () => {
      const h = (await (await fetch(`${base}/api/alerts/history`, { headers: auth })).json()) as AlertHistory;
      return h.entries.some((e) => e.kind === 'node-down') && h.entries.some((e) => e.kind === 'node-group-degraded') ? h : null;
    });
    for (const e of history.entries.filter((x) => x.kind === 'node-down' || x.kind === 'node-group-degraded')) assert.equal(e.silencedBy, window.id);
    const snap = await engine.handlers.getSnapshot({});
    assert.deepEqual(snap.alerts.filter((a) => a.kind === 'node-down' || a.kind === 'node-group-degraded'), [], 'no banner for a silenced kind');
    assert.deepEqual(snap.maintenance?.map((w) => w.id), [window.id], 'the window is in the snapshot, for the charts');

    const listed = (await (await fetch(`${base}/api/maintenance`, { headers: auth })).json()) as MaintenanceWindow[];
    assert.deepEqual(listed.map((w) => [w.id, w.end]), [[window.id, null]]);
    const stopped = await runCli(['maintenance', 'stop', window.id, '--url', base, '--token', TOKEN, '--json']);
    assert.equal(stopped.code, 0, stopped.stderr);
    assert.ok((JSON.parse(stopped.stdout) as MaintenanceWindow).end !== null);
    assert.equal((await fetch(`${base}/api/maintenance/${window.id}/stop`, { method: 'POST', headers: auth })).status, 409, 'already over');

    // Node 3 is still down when the window closes: the condition is raised now, and cleared once it is back.
    const after = (await engine.handlers.getSnapshot({})).alerts;
    assert.deepEqual(after.filter((a) => a.resolvedAt === null).map((a) => a.kind).sort(), ['node-down', 'node-group-degraded']);
    assert.ok(after.every((a) => a.message.endsWith('(still so after maintenance)')));
    await sim.model.startCluster();
    const cleared = await waitFor('the alerts cleared, with durations', async () => {
      const h = await engine.handlers.getAlertHistory({});
      const open = h.entries.filter((e) => e.clearedAt === null);
      return open.length === 0 ? h : null;
    }, 60_000);
    for (const e of cleared.entries) assert.equal(e.durationMs, (e.clearedAt ?? 0) - e.raisedAt);
  } finally {
    await server.close();
    await engine.close();
  }
});
