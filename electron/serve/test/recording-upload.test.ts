import assert from 'node:assert/strict';
import { request } from 'node:http';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Run } from '../../contract/schemas/runs.js';
import { createReplayEngine } from '../../engine/recording/replay.js';
import { recordingWithRun } from '../../engine/test/recording-fixture.js';
import { startServeServer } from '../serve-server.js';

const TOKEN = 'upload-test-token';
const MIB = 1024 * 1024;

const parse = (text: string): unknown[] => text.trim().split('\n').map((l) => JSON.parse(l) as unknown);

test('POST /api/recordings: a recording over 1 MiB streams in, with progress, gated like the requests that change the server, with clear errors', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ndbtop-upload-'));
  const file = join(dir, 'rec.jsonl');
  try {
    await recordingWithRun(file);
    const size = (await stat(file)).size;
    assert.ok(size > MIB, `${size} bytes`);
    const body = await readFile(file);
    const engine = await createReplayEngine({ file, speed: Infinity });
    const open = await startServeServer({ engine, staticDir: '/nonexistent', port: 0, token: TOKEN, allowChanges: true, maxUploadBytes: 2 * MIB, readyWithinMs: 0 });
    const viewer = await startServeServer({ engine, staticDir: '/nonexistent', port: 0, token: TOKEN, readyWithinMs: 0 });
    const post = (port: number, bytes: Uint8Array, headers: Record<string, string> = {}, name = 'rec.jsonl') =>
      fetch(`http://127.0.0.1:${port}/api/recordings?name=${encodeURIComponent(name)}`, { method: 'POST', body: bytes, headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/octet-stream', ...headers } });
    try {
      assert.equal((await post(open.port, body, { Authorization: 'Bearer wrong-token-x' })).status, 401);
      const refused = await post(viewer.port, body);
      assert.equal(refused.status, 403);
      assert.match(await refused.text(), /--allow-changes/);
      assert.equal((await post(open.port, body, { 'Content-Type': 'text/plain' })).status, 415, 'a cross-site form cannot send it');
      const large = await post(open.port, Buffer.alloc(3 * MIB, 1));
      assert.equal(large.status, 413);
      assert.match(await large.text(), /the recording is over 2 MiB, the limit of this server/);

      const ok = await post(open.port, body);
      assert.equal(ok.status, 200);
      const replies = parse(await ok.text()) as ({ progress: { done: number; total: number } } | { runs: Run[] })[];
      const last = replies.at(-1);
      assert.ok(last && 'runs' in last, JSON.stringify(last));
      assert.deepEqual(last.runs.map((r) => [r.name, r.source]), [['A', 'rec.jsonl']]);
      const progress = replies.flatMap((r) => ('progress' in r ? [r.progress] : []));
      assert.ok(progress.length > 0 && progress.at(-1)?.done === progress.at(-1)?.total, JSON.stringify(progress));
      assert.deepEqual((await engine.handlers.listImportedRuns({})).map((r) => r.id), last.runs.map((r) => r.id));

      const bad = parse(await (await post(open.port, Buffer.from('not a recording\n'), {}, '\x1b[2J.jsonl')).text()) as { error?: { message: string } }[];
      assert.match(bad.at(-1)?.error?.message ?? '', /not an ndbtop recording/);
    } finally {
      await open.close();
      await viewer.close();
      await engine.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

/** Sends `body` in `parts` pieces `everyMs` apart (then, with `stallAfter`, nothing more after that many); the status and answer. */
function trickle(port: number, body: Buffer, parts: number, everyMs: number, stallAfter = parts): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ port, host: '127.0.0.1', method: 'POST', path: '/api/recordings?name=slow.jsonl', headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/octet-stream', 'Content-Length': body.length } }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    const size = Math.ceil(body.length / parts);
    let i = 0;
    const next = (): void => {
      if (i === stallAfter) return;
      const last = i === parts - 1;
      req.write(body.subarray(i * size, (i + 1) * size));
      i += 1;
      if (last) req.end();
      else setTimeout(next, everyMs);
    };
    next();
  });
}

test('POST /api/recordings: an upload slower than any whole-request limit goes through while bytes keep coming; one that stalls gets 408', { timeout: 120_000 }, async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ndbtop-upload-'));
  const file = join(dir, 'rec.jsonl');
  try {
    await recordingWithRun(file);
    const body = await readFile(file);
    const engine = await createReplayEngine({ file, speed: Infinity });
    // Headers within 300 ms (the whole-request limit used to be three times that); idle for 1 s drops an upload.
    const server = await startServeServer({ engine, staticDir: '/nonexistent', port: 0, token: TOKEN, allowChanges: true, headersTimeoutMs: 300, idleTimeoutMs: 1000, readyWithinMs: 0 });
    try {
      const started = Date.now();
      const slow = await trickle(server.port, body, 10, 400);
      assert.ok(Date.now() - started > 3000, 'the upload took longer than the old 0.9 s limit');
      assert.equal(slow.status, 200, slow.text);
      const last = parse(slow.text).at(-1) as { runs?: Run[] };
      assert.deepEqual(last.runs?.map((r) => r.name), ['A'], slow.text.slice(-600));

      const stalled = await trickle(server.port, body, 10, 400, 3);
      assert.equal(stalled.status, 408);
      assert.match(stalled.text, /the upload stalled: no bytes for 1 s/);
      assert.equal((await engine.handlers.listImportedRuns({})).length, 1, 'nothing imported from the stalled upload');
    } finally {
      await server.close();
      await engine.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
