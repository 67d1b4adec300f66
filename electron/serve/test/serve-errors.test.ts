import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect } from 'node:net';
import { test, type TestContext } from 'node:test';
import WebSocket from 'ws';
import type { EngineHandlers } from '../../contract/page-safe/api.js';
import type { EngineHost } from '../../engine/core/engine-host.js';
import { startServeServer } from '../serve-server.js';
import { dispatchRequest } from '../transport/bridge.js';
import { createFixtureEngine } from './fixture-engine.js';
import { makeStaticRoot } from './helpers.js';

// A failure inside the server (a bug, the file system, a driver) was answered with its message: a viewer read the
// server's paths, its SQL and the hosts behind it. Every route, the WebSocket and uploads, over real sockets.

const PATH = '/var/lib/ndbtop-secret/state.json';
const SQL = 'SELECT node_id FROM ndbinfo.secret_table';
const HOST = 'db-internal-7.corp.example';
/** What a file system or driver error says: a code that is no answer's (ENOENT) and words a viewer must not read. */
const failure = (): Error => Object.assign(new Error(`ENOENT: no such file or directory, open '${PATH}' (${SQL} on ${HOST})`), { code: 'ENOENT' });
const LEAKS = [PATH, 'ndbtop-secret', SQL, 'secret_table', HOST, 'corp.example', 'ENOENT', 'at async', '.ts:'];

function noLeak(text: string, what: string): void {
  for (const leak of LEAKS) assert.ok(!text.includes(leak), `${what} quotes ${JSON.stringify(leak)}: ${text}`);
}

/** The id a client was given, found in exactly one log line that has the whole detail. */
function loggedOnce(text: string, log: readonly string[], what: string): string {
  const id = /internal error ([0-9a-f]{12})/.exec(text)?.[1];
  assert.ok(id !== undefined, `${what}: an id to quote: ${text}`);
  const lines = log.filter((l) => l.includes(id));
  assert.equal(lines.length, 1, `${what}: one log line for ${id}: ${log.join('\n')}`);
  assert.ok(lines[0]?.includes(PATH) && lines[0].includes(SQL) && lines[0].includes(HOST), `${what}: the log has the detail: ${lines[0]}`);
  return id;
}

/** Every handler throws the failure: whatever a route asks, it is the engine failing. */
function failingEngine(): EngineHost {
  const engine = createFixtureEngine();
  const failing = Object.fromEntries(Object.keys(engine.handlers).map((name) => [name, async () => Promise.reject(failure())])) as unknown as EngineHandlers;
  // getAppInfo answers: the gates ask it whether actions are on before the handler itself runs.
  Object.assign(engine.handlers, failing, { getAppInfo: async () => ({ version: '0.0.0', host: 'serve', actionsEnabled: true }) });
  return Object.assign(engine, { recordings: { importFile: async () => Promise.reject(failure()) } });
}

async function serve(t: TestContext, engine: EngineHost) {
  const log: string[] = [];
  const dir = await makeStaticRoot();
  const server = await startServeServer({ engine, staticDir: dir.root, port: 0, allowChanges: true, log: (line) => log.push(line) });
  t.after(async () => {
    await server.close();
    await dir.cleanup();
  });
  return { server, log };
}

/** One request as raw bytes: the status and the body, as any client gets them. */
async function raw(port: number, method: string, path: string, body = '', contentType = 'application/json'): Promise<{ status: number; body: string }> {
  const socket = connect(port, '127.0.0.1');
  const chunks: Buffer[] = [];
  socket.on('data', (c: Buffer) => chunks.push(c));
  socket.on('error', () => undefined);
  await once(socket, 'connect');
  socket.write(`${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\nContent-Type: ${contentType}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  await once(socket, 'close');
  const text = Buffer.concat(chunks).toString('utf8');
  return { status: Number(text.split(' ')[1]), body: text.slice(text.indexOf('\r\n\r\n') + 4) };
}

test('an engine failure quoting paths, SQL and hosts reaches no client: every route, /metrics, the WebSocket and uploads give an id, the log the detail', { timeout: 60_000 }, async (t) => {
  const { server, log } = await serve(t, failingEngine());
  const requests: Array<[string, string, string?]> = [
    ['GET', '/api/snapshot'],
    ['GET', '/api/backups'],
    ['GET', '/api/runs'],
    ['GET', '/api/runs/r1?format=csv'],
    ['POST', '/api/runs', '{"name":"x"}'],
    ['POST', '/api/runs/r1/phase', '{"name":"x"}'],
    ['GET', '/api/alerts/history'],
    ['GET', '/api/maintenance'],
    ['POST', '/api/maintenance', '{"reason":"x"}'],
    ['GET', '/api/incidents'],
    ['GET', '/api/rolling-restart'],
    ['POST', '/api/rolling-restart', '{}'],
    ['POST', '/api/rolling-restart/p1/start', '{}'],
    ['GET', '/api/export?format=csv'],
    // The exporter calls the engine outside any route's handling: the catch-all answers it.
    ['GET', '/metrics'],
  ];
  const ids = new Set<string>();
  for (const [method, path, body] of requests) {
    const reply = await raw(server.port, method, path, body);
    const what = `${method} ${path}`;
    assert.equal(reply.status, 500, `${what}: ${reply.body}`);
    noLeak(reply.body, what);
    ids.add(loggedOnce(reply.body, log, what));
  }
  assert.equal(ids.size, requests.length, 'each failure its own id');

  // A recording's import fails inside the server: the uploader gets the id in the answer's last line.
  const upload = await raw(server.port, 'POST', '/api/recordings?name=lab.jsonl', '{"format":"ndbtop-recording"}\n', 'application/octet-stream');
  noLeak(upload.body, 'POST /api/recordings');
  assert.match(upload.body, /"code":"INTERNAL"/);
  loggedOnce(upload.body, log, 'POST /api/recordings');

  const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws`);
  t.after(() => ws.terminate());
  await once(ws, 'open');
  for (const [id, name] of [[1, 'getEvents'], [2, 'getSnapshot'], [3, 'runAction']] as const) {
    ws.send(JSON.stringify({ id, name, request: name === 'runAction' ? { action: { kind: 'start', nodeId: 1 } } : {} }));
    const [data] = (await once(ws, 'message')) as [Buffer];
    const frame = JSON.parse(String(data)) as { id: number; ok: boolean; error?: { code: string; message: string } };
    assert.deepEqual([frame.id, frame.ok, frame.error?.code], [id, false, 'INTERNAL'], String(data));
    noLeak(String(data), `WebSocket ${name}`);
    loggedOnce(String(data), log, `WebSocket ${name}`);
  }
});

test('errors written for the client still say what is wrong, and nothing is logged for them; a bad path escape is a 400', { timeout: 30_000 }, async (t) => {
  const { server, log } = await serve(t, createFixtureEngine());
  const wrong = await raw(server.port, 'POST', '/api/runs', '{"name":5}');
  assert.equal(wrong.status, 400, wrong.body);
  assert.match(wrong.body, /"code":"BAD_MESSAGE".*name/);
  const missing = await raw(server.port, 'GET', '/api/export?format=csv&clusterId=nope');
  assert.ok(missing.status < 500, missing.body);
  // decodeURIComponent's URIError came back as "500 Internal Server Error: URI malformed".
  for (const [method, path] of [['GET', '/api/runs/%E0%A4%A'], ['POST', '/api/maintenance/%ZZ/stop'], ['POST', '/api/rolling-restart/%C0%AF/start']]) {
    const reply = await raw(server.port, method ?? '', path ?? '', '{}');
    assert.equal(reply.status, 400, `${method} ${path}: ${reply.body}`);
    assert.match(reply.body, /"code":"BAD_REQUEST","message":"the path is not valid percent-encoding"/);
  }
  assert.deepEqual(log, [], 'a client error is no internal one');
});

test('the bridge (desktop IPC and serve alike) hands on an error written for the client, and only an id of any other', async () => {
  const engine = failingEngine();
  const log: string[] = [];
  const failed = await dispatchRequest(engine.handlers, 'getEvents', {}, (line) => log.push(line));
  assert.equal(failed.ok ? '' : failed.error.code, 'INTERNAL');
  noLeak(failed.ok ? '' : failed.error.message, 'the bridge');
  loggedOnce(failed.ok ? '' : failed.error.message, log, 'the bridge');
  const refused = await dispatchRequest(createFixtureEngine().handlers, 'runAction', { action: { kind: 'start', nodeId: 1 } }, (line) => log.push(line));
  assert.deepEqual(refused, { ok: false, error: { code: 'FORBIDDEN', message: 'operator actions are disabled' } });
  assert.equal(log.length, 1);
});
