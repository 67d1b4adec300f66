import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AlertHistory, MaintenanceWindow } from '../../contract/schemas/maintenance.js';
import { createEngine } from '../../engine/create-engine.js';
import { waitFor } from '../../engine/test/helpers.js';
import { startServeServer } from '../serve-server.js';
import { runCli } from '../../cli/test/run-cli.js';
import { EVENT_TYPES_BY_NAME } from '../../../native-mgm/index.js';
import { MAX_OPEN_MAINTENANCE_WINDOWS } from '../../contract/schemas/maintenance.js';
import { parsePrometheusText } from './prom-text.js';

const TOKEN = 'maintenance-test-token';

test('a maintenance window from the CLI silences the chosen kinds (history keeps them, marked), not the others; HTTP lists and stops it', async () => {
  const engine = await createEngine({ host: 'serve', actionsEnabled: false, pollIntervalMs: 500, simulator: { scenario: 'idle', dataNodes: 4, speed: 10 } });
  const sim = engine.simulator;
  assert.ok(sim);
  const server = await startServeServer({ engine, staticDir: '/nonexistent', port: 0, token: TOKEN, allowChanges: true });
  const base = `http://127.0.0.1:${server.port}`;
  const auth = { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' };
  try {
    await waitFor('four data nodes STARTED', async () => (await engine.handlers.getSnapshot({})).nodes.filter((n) => n.type === 'NDB' && n.status === 'STARTED').length === 4, 30_000);
    assert.equal((await fetch(`${base}/api/maintenance`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })).status, 401, 'the token rules of run marks');

    // Beside maintenance, the rolling restart: with the token and --allow-changes but without --allow-actions, planning and acting are 403.
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

    // node-down is critical: silenced only because the opener says so.
    const cli = await runCli(['maintenance', 'start', '--silence', 'node-down,node-group-degraded', '--silence-critical', '--reason', 'replace disk on node 3', '--duration', '30m', '--url', base, '--json'], { NDBTOP_TOKEN: TOKEN });
    assert.equal(cli.code, 0, cli.stderr);
    const window = JSON.parse(cli.stdout) as MaintenanceWindow;
    assert.deepEqual([window.reason, window.silence, window.silenceCritical, window.end], ['replace disk on node 3', ['node-down', 'node-group-degraded'], true, null]);
    assert.match(window.openedBy, /^\S+@\S+$/, 'the CLI names user@host');
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

// Issue 35 item 1: 3,000 windows opened in 6 s, each a week long, grew every snapshot to 2.77 MB.
test('with --allow-changes: at most 32 windows open and 24 h long, each refused in words; extend; every window event in the history and /metrics', { timeout: 120_000 }, async () => {
  const engine = await createEngine({ host: 'serve', actionsEnabled: false, pollIntervalMs: 500, simulator: { scenario: 'idle', dataNodes: 2, speed: 10, sql: false } });
  const server = await startServeServer({ engine, staticDir: '/nonexistent', port: 0, token: TOKEN, allowChanges: true });
  const base = `http://127.0.0.1:${server.port}`;
  const auth = { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' };
  const post = async (path: string, body: unknown): Promise<{ status: number; body: { error?: { code: string; message: string } } & Partial<MaintenanceWindow> }> => {
    const res = await fetch(`${base}/api/maintenance${path}`, { method: 'POST', headers: auth, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as { error?: { code: string; message: string } } & Partial<MaintenanceWindow> };
  };
  const metric = async (name: string, labels: Record<string, string> = {}): Promise<number | undefined> => {
    const text = await (await fetch(`${base}/metrics`, { headers: auth })).text();
    return parsePrometheusText(text).samples.find((x) => x.name === name && Object.entries(labels).every(([k, v]) => x.labels[k] === v))?.value;
  };
  try {
    const tooLong = await post('', { durationMs: 25 * 3600_000 });
    assert.equal(tooLong.status, 400);
    assert.match(String(tooLong.body.error?.message), /a maintenance window lasts at most 24 h/);
    const cliLong = await runCli(['maintenance', 'start', '--duration', '8d', '--url', base, '--token', TOKEN]);
    assert.notEqual(cliLong.code, 0);
    assert.match(cliLong.stderr, /a maintenance window lasts at most 24 h/);
    assert.equal((await post('', { by: 'evil\u001b]0;x\u0007' })).status, 400, 'a name with control characters is refused');
    // "nimda" under a right-to-left override reads "admin": 'silenced by admin' from someone else.
    assert.equal((await post('', { by: '\u202enimda' })).status, 400, 'a name with a bidi control is refused');

    for (let i = 0; i < MAX_OPEN_MAINTENANCE_WINDOWS; i += 1) assert.equal((await post('', { reason: `w${i}`, durationMs: 600_000, by: 'ops' })).status, 201, `window ${i}`);
    const one = await post('', { reason: 'one too many' });
    assert.equal(one.status, 409);
    assert.equal(one.body.error?.message, `${MAX_OPEN_MAINTENANCE_WINDOWS} maintenance windows are open, the most at once: end one before opening another`);
    assert.equal((await engine.handlers.listMaintenance({})).length, MAX_OPEN_MAINTENANCE_WINDOWS);
    assert.equal(await metric('ndbtop_maintenance_windows_open'), MAX_OPEN_MAINTENANCE_WINDOWS);
    assert.equal(await metric('ndbtop_maintenance_critical_silenced'), 0, 'no window silences criticals unless told');

    const [first, second] = await engine.handlers.listMaintenance({});
    assert.ok(first && second && first.until !== null);
    const extended = await runCli(['maintenance', 'extend', first.id, '--duration', '30m', '--by', 'alice', '--url', base, '--token', TOKEN, '--json']);
    assert.equal(extended.code, 0, extended.stderr);
    assert.equal((JSON.parse(extended.stdout) as MaintenanceWindow).until, first.until + 30 * 60_000);
    const past = await runCli(['maintenance', 'extend', first.id, '--duration', '24h', '--url', base, '--token', TOKEN]);
    assert.notEqual(past.code, 0);
    assert.match(past.stderr, new RegExp(`maintenance window ${first.id}, extended, would last more than 24 h`));
    assert.equal((await runCli(['maintenance', 'stop', second.id, '--by', 'bob', '--url', base, '--token', TOKEN])).code, 0);

    // The freed place: a short window that silences criticals, said so, and left to run out.
    const loud = await post('', { reason: 'swap node 2', durationMs: 1500, silenceCritical: true, by: 'carol' });
    assert.equal(loud.status, 201, JSON.stringify(loud.body));
    assert.equal(await metric('ndbtop_maintenance_critical_silenced'), 1);
    const history = await waitFor('the short window expired', async () => {
      const h = (await (await fetch(`${base}/api/alerts/history`, { headers: auth })).json()) as AlertHistory;
      return h.maintenance.some((e) => e.what === 'expired') ? h : null;
    }, 30_000);
    const counted = (what: string): number => history.maintenance.filter((e) => e.what === what).length;
    assert.deepEqual([counted('opened'), counted('extended'), counted('closed'), counted('expired')], [MAX_OPEN_MAINTENANCE_WINDOWS + 1, 1, 1, 1]);
    assert.deepEqual(history.maintenance.filter((e) => e.what !== 'opened').map((e) => [e.windowId, e.what, e.by]), [[first.id, 'extended', 'alice'], [second.id, 'closed', 'bob'], [loud.body.id, 'expired', null]]);
    assert.deepEqual(history.maintenance.filter((e) => e.silenceCritical).map((e) => [e.windowId, e.by]), [[loud.body.id, 'carol'], [loud.body.id, null]]);
    for (const [event, n] of [['opened', MAX_OPEN_MAINTENANCE_WINDOWS + 1], ['extended', 1], ['closed', 1], ['expired', 1]] as const) assert.equal(await metric('ndbtop_maintenance_window_events_total', { event }), n, event);
    assert.equal(await metric('ndbtop_maintenance_critical_silenced'), 0, 'over once it ran out');
    assert.equal(await metric('ndbtop_maintenance_windows_open'), MAX_OPEN_MAINTENANCE_WINDOWS - 1);
  } finally {
    await server.close();
    await engine.close();
  }
});
