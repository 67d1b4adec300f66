import assert from 'node:assert/strict';
import { request } from 'node:http';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import type { Run } from '../../contract/schemas/runs.js';
import { RECORDING_FORMAT, RECORDING_VERSION } from '../../engine/recording/recording-format.js';
import { encodeMember, memberOf, RUN_MARKS } from '../../engine/recording/recording-member.js';
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

test('POST /api/recordings: a decompression bomb is refused after a sliver of its size, its errors name no server path, and the server keeps serving', { timeout: 120_000 }, async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ndbtop-upload-'));
  const file = join(dir, 'rec.jsonl');
  try {
    await recordingWithRun(file);
    const engine = await createReplayEngine({ file, speed: Infinity });
    const server = await startServeServer({ engine, staticDir: '/nonexistent', port: 0, token: TOKEN, allowChanges: true, readyWithinMs: 0 });
    const upload = async (bytes: Uint8Array, name: string): Promise<{ status: number; last: { runs?: Run[]; error?: { code: string; message: string } }; text: string }> => {
      const res = await fetch(`http://127.0.0.1:${server.port}/api/recordings?name=${encodeURIComponent(name)}`, { method: 'POST', body: bytes, headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/octet-stream' } });
      const text = await res.text();
      return { status: res.status, last: parse(text).at(-1) as { runs?: Run[]; error?: { code: string; message: string } }, text };
    };
    const noPath = (text: string): void => {
      assert.ok(!text.includes(tmpdir()) && !/\/tmp\b|ndbtop-upload-/.test(text), `a server path in: ${text}`);
    };
    try {
      // 64 MiB of newlines in 64 KiB (the gigabyte in a megabyte kept a core busy for minutes).
      const newlines = gzipSync(Buffer.alloc(64 * MIB, 0x0a), { level: 9 });
      const header = `${JSON.stringify({ format: RECORDING_FORMAT, version: RECORDING_VERSION, createdAt: 1, engine: 'x' })}\n`;
      const before = process.cpuUsage();
      const bombs = [
        ['newlines.gz', newlines],
        // Behind a real header, in a member of ours flagged as holding run marks: inflated whole by the index.
        ['marks.gz', Buffer.concat([encodeMember(header, 0, 1), memberOf(newlines, RUN_MARKS, 2)])],
        // A header, then lines that each fail to parse.
        ['lines.gz', gzipSync(Buffer.concat([Buffer.from(header), Buffer.alloc(64 * MIB, '{a}\n')]), { level: 9 })],
      ] as const;
      for (const [name, bytes] of bombs) {
        assert.ok(bytes.length < MIB, `${name}: ${bytes.length} bytes`);
        const bomb = await upload(bytes, name);
        assert.equal(bomb.status, 200);
        assert.equal(bomb.last.error?.code, 'BAD_RECORDING', `${name}: ${bomb.text}`);
        assert.match(bomb.last.error?.message ?? '', /inflates more than 200 times/, name);
        noPath(bomb.text);
      }
      const cpu = process.cpuUsage(before);
      // Not a pass/fail timing (a shared machine): what the three cost, for whoever reads the log.
      console.log(`# three bombs refused in ${Math.round((cpu.user + cpu.system) / 1000)} ms of CPU`);

      const notes = await upload(Buffer.from('these are my notes\n'), 'notes.txt');
      assert.match(notes.last.error?.message ?? '', /^notes\.txt is not an ndbtop recording/, 'named as the viewer named it');
      noPath(notes.text);

      assert.equal((await fetch(`http://127.0.0.1:${server.port}/api/snapshot`, { headers: { Authorization: `Bearer ${TOKEN}` } })).status, 200, 'still serving');
      const ok = await upload(await readFile(file), 'rec.jsonl');
      assert.deepEqual(ok.last.runs?.map((r) => r.name), ['A'], 'a real recording still goes through');
    } finally {
      await server.close();
      await engine.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
