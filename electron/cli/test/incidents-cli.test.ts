import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { IncidentList } from '../../contract/schemas/incidents.js';
import { createEngine } from '../../engine/create-engine.js';
import { waitFor } from '../../engine/test/helpers.js';
import { startServeServer } from '../../serve/serve-server.js';
import { runCli } from './run-cli.js';

const TOKEN = 'incidents-cli-token';

test('a crashed node: one incident, linked from its alert, the same from /api/incidents, `ndbtop incidents --url`, and a replay of the recording', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ndbtop-incidents-'));
  const file = join(dir, 'crash.jsonl');
  const engine = await createEngine({ host: 'serve', actionsEnabled: false, pollIntervalMs: 250, simulator: { scenario: 'idle', dataNodes: 4, speed: 16, sql: false }, recordFile: file });
  const sim = engine.simulator;
  assert.ok(sim);
  const server = await startServeServer({ engine, staticDir: '/nonexistent', port: 0, token: TOKEN });
  const url = `http://127.0.0.1:${server.port}/`;
  let live: IncidentList;
  try {
    await waitFor('four data nodes STARTED', async () => (await engine.handlers.getSnapshot({})).nodes.filter((n) => n.type === 'NDB' && n.status === 'STARTED').length === 4, 30_000);
    const run = await engine.handlers.startRun({ name: 'crash-run' });
    // The simulator's crash: NDBStopForced (error 6000, SIGABRT) from the node, then the survivors' failure handling.
    sim.model.failNode(3, { autoRestart: true, downMs: 4000 });
    live = await waitFor('node 3 back, its incident with the restart', async () => {
      const list = await engine.handlers.getIncidents({});
      return list.incidents[0]?.restart.backAt ? list : null;
    }, 60_000);
    assert.equal(live.incidents.length, 1);
    const incident = live.incidents[0];
    assert.ok(incident);
    assert.deepEqual(incident.nodeIds, [3]);
    assert.equal(incident.cause.kind, 'error', 'exit code 6000 is a signal: a crash, with the manual\'s words');
    assert.ok(incident.cause.evidence.some((e) => e.text.includes('error 6000, signal 6: Error OS signal received')));
    assert.ok(incident.restart.phases.length > 0);
    const snapshot = await engine.handlers.getSnapshot({});
    const history = await engine.handlers.getAlertHistory({});
    assert.ok(history.entries.some((e) => e.kind === 'node-down' && e.nodeId === 3));
    const alert = snapshot.alerts.find((a) => a.kind === 'node-down' && a.nodeId === 3);
    assert.equal(alert?.incidentId, incident.id, 'the node-down alert links its incident');

    await engine.handlers.stopRun({ runId: run.id });
    const report = (await engine.handlers.getRunReports({ runIds: [run.id], figure: 'transactions' })).runs[0];
    assert.deepEqual(report?.incidents?.map((i) => i.id), [incident.id], 'the run report lists the incident of its run');
    const md = await engine.handlers.exportRuns({ runIds: [run.id], format: 'md', figure: 'transactions' });
    assert.match(md.content, /### Incidents \(why data nodes fell\)\n\n- \d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ {2}node 3 {2}error {2}Node 3 shut down after an error/);
    const metrics = await (await fetch(`${url}metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
    assert.match(metrics, /^ndbtop_incidents_total\{cluster="[^"]+",cause="error"\} 1$/m);
    assert.match(metrics, /^ndbtop_incidents_total\{cluster="[^"]+",cause="heartbeat"\} 0$/m, 'every cause, zeros included');

    // What a page holds: the summaries (no evidence, minute before or restart phases), and one incident in full by its id.
    const auth = { headers: { authorization: `Bearer ${TOKEN}` } };
    const summaries = await (await fetch(`${url}api/incidents?summary=1`, auth)).json() as { incidents: Array<Record<string, unknown>> };
    const { cause, restart, before: _before, ...rest } = incident;
    const { phases: _phases, ...restartSummary } = restart;
    assert.deepEqual(summaries, { incidents: [{ ...rest, cause: { kind: cause.kind, text: cause.text }, restart: restartSummary }] });
    assert.deepEqual(await engine.handlers.listIncidents({}), summaries, 'the same over the contract');
    const one = await fetch(`${url}api/incidents/${encodeURIComponent(incident.id)}`, auth);
    assert.equal(one.status, 200);
    assert.deepEqual(await one.json(), incident, 'one incident in full, as the list gives it');
    assert.deepEqual(await engine.handlers.getIncident({ id: incident.id }), incident);
    const gone = await fetch(`${url}api/incidents/inc-0-n9`, auth);
    assert.equal(gone.status, 404);
    assert.equal(await engine.handlers.getIncident({ id: 'inc-0-n9' }), null);
    assert.equal((await fetch(`${url}api/incidents?summary=yes`, auth)).status, 400);

    const json = await runCli(['incidents', '--url', url, '--json'], { NDBTOP_TOKEN: TOKEN });
    assert.equal(json.code, 0, json.stderr);
    assert.deepEqual(JSON.parse(json.stdout), live);
    const text = await runCli(['incidents', '--url', url, '--since', '1h', '--token', TOKEN]);
    assert.match(text.stdout, /^\S+Z {2}node 3 {2}error {2}Node 3 shut down after an error.*; back after \d+ s/m);
    assert.match(text.stdout, /^ {4}\d\d:\d\d:\d\d\.\d{3} {2}event {4}Node 3: forced shutdown/m, 'its evidence under it');
    const none = await runCli(['incidents', '--url', url, '--since', '1s', '--token', TOKEN]);
    assert.equal(none.stdout, 'no incidents\n');
    const refused = await runCli(['incidents', '--url', url, '--token', 'wrong']);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /\/api\/incidents/);
  } finally {
    await server.close();
    await engine.close();
  }
  try {
    const replayed = await runCli(['incidents', file, '--json'], {}, 60_000);
    assert.equal(replayed.code, 0, replayed.stderr);
    assert.deepEqual(JSON.parse(replayed.stdout), live, 'the recording rebuilds the same incidents');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
