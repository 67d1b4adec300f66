import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Run } from '../../contract/runs.js';
import { createReplayEngine } from '../../engine/recording/replay.js';
import { recordingWithRun } from '../../engine/test/recording-fixture.js';
import { startServeServer } from '../serve-server.js';

const TOKEN = 'upload-test-token';
const MIB = 1024 * 1024;

const parse = (text: string): unknown[] => text.trim().split('\n').map((l) => JSON.parse(l) as unknown);

test('POST /api/recordings: a recording over 1 MiB streams in, with progress, gated like importRecording, with clear errors', async () => {
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
