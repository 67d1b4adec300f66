import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Run } from '../../contract/schemas/runs.js';
import { createEngine } from '../../engine/create-engine.js';
import { startServeServer } from '../serve-server.js';
import { runCli } from '../../cli/test/run-cli.js';

const TOKEN = 'runs-test-token';

test('the runs endpoint: token as serve mode, no --allow-actions needed, JSON answers with the run id, clear errors', async () => {
  const engine = await createEngine({ host: 'serve', actionsEnabled: false, simulator: { scenario: 'steady', dataNodes: 2 } });
  const server = await startServeServer({ engine, staticDir: '/nonexistent', port: 0, token: TOKEN });
  const base = `http://127.0.0.1:${server.port}`;
  const post = (path: string, body: unknown, headers: Record<string, string> = { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' }) =>
    fetch(`${base}${path}`, { method: 'POST', headers, body: body === undefined ? undefined : JSON.stringify(body) });
  try {
    assert.equal((await post('/api/runs', { name: 'x' }, { 'Content-Type': 'application/json' })).status, 401, 'no token');
    assert.equal((await post('/api/runs', { name: 'x' }, { Authorization: 'Bearer wrong-token', 'Content-Type': 'application/json' })).status, 401);

    const started = await post('/api/runs', { name: 'A', tags: { compress: 'off' }, phase: 'warm-up' });
    assert.equal(started.status, 201);
    const run = (await started.json()) as Run;
    assert.match(run.id, /^run-\d+$/);
    assert.deepEqual([run.name, run.tags, run.phases.map((p) => p.name), run.end], ['A', { compress: 'off' }, ['warm-up'], null]);

    const again = await post('/api/runs', { name: 'B' });
    assert.equal(again.status, 409);
    assert.match(((await again.json()) as { error: { message: string } }).error.message, /still running/);

    const phase = (await (await post(`/api/runs/${run.id}/phase`, { name: 'measure' })).json()) as Run;
    assert.deepEqual(phase.phases.map((p) => [p.name, p.end === null]), [['warm-up', false], ['measure', true]]);
    const form = await post(`/api/runs/${run.id}/phase`, 'name=x', { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/x-www-form-urlencoded' });
    assert.equal(form.status, 415, 'a form post is refused');
    assert.equal((await post(`/api/runs/${run.id}/phase`, { nom: 'x' })).status, 400, 'a body not matching the contract');

    const stopped = (await (await post(`/api/runs/${run.id}/stop`, undefined)).json()) as Run;
    assert.ok(stopped.end !== null && stopped.end >= stopped.start);
    assert.equal((await post(`/api/runs/${run.id}/stop`, undefined)).status, 409, 'already stopped');
    assert.equal((await post('/api/runs/run-999/stop', undefined)).status, 404);

    const md = await fetch(`${base}/api/runs/${run.id}?format=md`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    assert.equal(md.status, 200);
    assert.match(await md.text(), /## A \(run-\d+\)[\s\S]*\| warm-up \|[\s\S]*\| measure \|/);
    const list = (await (await fetch(`${base}/api/runs?token=${TOKEN}`)).json()) as { runs: Array<{ id: string; series?: unknown }> };
    assert.deepEqual(list.runs.map((r) => r.id), [run.id]);
    assert.equal(list.runs[0]?.series, undefined, 'the JSON report leaves the overlay series out');

    // The CLI marks over the same endpoint, as a benchmark script in a shell would.
    const cli = await runCli(['run', 'start', 'from-cli', '--tag', 'nodes=2', '--url', base], { NDBTOP_TOKEN: TOKEN });
    assert.equal(cli.code, 0, cli.stderr);
    const id = cli.stdout.trim();
    const stop = await runCli(['run', 'stop', id, '--url', base, '--token', TOKEN, '--json']);
    assert.equal(stop.code, 0, stop.stderr);
    assert.equal((JSON.parse(stop.stdout) as Run).tags.nodes, '2');
    const refused = await runCli(['run', 'stop', id, '--url', base, '--token', TOKEN]);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /already stopped/);
  } finally {
    await server.close();
    await engine.close();
  }
});

test('without a token (loopback) a cross-site page cannot mark runs', async () => {
  const engine = await createEngine({ host: 'serve', simulator: { scenario: 'idle', dataNodes: 2 } });
  const server = await startServeServer({ engine, staticDir: '/nonexistent', port: 0 });
  try {
    const res = await fetch(`http://127.0.0.1:${server.port}/api/runs`, { method: 'POST', headers: { Origin: 'http://evil.example', 'Content-Type': 'application/json' }, body: '{"name":"x"}' });
    assert.equal(res.status, 403);
    const ok = await fetch(`http://127.0.0.1:${server.port}/api/runs`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"name":"x"}' });
    assert.equal(ok.status, 201);
  } finally {
    await server.close();
    await engine.close();
  }
});
