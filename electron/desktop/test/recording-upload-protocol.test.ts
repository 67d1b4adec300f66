import assert from 'node:assert/strict';
import { createReadStream } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import type { Run } from '../../contract/schemas/runs.js';
import { isGzip } from '../../engine/recording/recording-member.js';
import { createReplayEngine } from '../../engine/recording/replay.js';
import { recordingWithRun } from '../../engine/test/recording-fixture.js';
import { desktopRecordingUpload, isRecordingUpload } from '../recording-upload-protocol.js';

const URL_OF = (name: string): string => `app://ndbtop/api/recordings?name=${encodeURIComponent(name)}`;

/** The request as Electron's protocol.handle gives it: a web Request whose body is a stream. */
function post(name: string, body: ReadableStream<Uint8Array> | Uint8Array, contentType = 'application/octet-stream'): Request {
  return new Request(URL_OF(name), { method: 'POST', body, headers: { 'Content-Type': contentType }, duplex: 'half' } as RequestInit);
}

test('desktop: a compressed recording POSTed to app://ndbtop/api/recordings streams into the same handler as serve mode', async () => {
  assert.equal(isRecordingUpload(URL_OF('x')), true);
  for (const other of ['app://ndbtop/index.html', 'app://other/api/recordings?name=x', 'https://ndbtop/api/recordings?name=x']) assert.equal(isRecordingUpload(other), false, other);

  const dir = await mkdtemp(join(tmpdir(), 'ndbtop-desktop-upload-'));
  const file = join(dir, 'rec.jsonl');
  try {
    await recordingWithRun(file);
    assert.ok(isGzip(await readFile(file)), 'the recorder writes it compressed');
    const size = (await stat(file)).size;
    const engine = await createReplayEngine({ file, speed: Infinity });
    try {
      const body = Readable.toWeb(createReadStream(file, { highWaterMark: 64 * 1024 })) as ReadableStream<Uint8Array>;
      const response = await desktopRecordingUpload(engine, post('rec.jsonl', body));
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('content-type'), 'application/x-ndjson; charset=utf-8');
      assert.match(response.headers.get('content-security-policy') ?? '', /connect-src 'self'/);
      const replies = (await response.text()).trim().split('\n').map((l) => JSON.parse(l) as { progress?: { done: number; total: number }; runs?: Run[] });
      const progress = replies.flatMap((r) => (r.progress ? [r.progress] : []));
      // Its runs are read from the recording's digest members, a small part of the file: the progress counts those.
      const last = progress.at(-1);
      assert.ok(progress.length > 1 && last !== undefined && last.done === last.total && last.total < size, JSON.stringify(progress));
      const runs = replies.at(-1)?.runs;
      assert.deepEqual(runs?.map((r) => [r.name, r.source]), [['A', 'rec.jsonl']]);
      assert.deepEqual((await engine.handlers.listImportedRuns({})).map((r) => r.id), runs?.map((r) => r.id));

      const bad = await desktopRecordingUpload(engine, post('notes.txt', new TextEncoder().encode('my notes\n')));
      assert.match(await bad.text(), /not an ndbtop recording/);
      const refused = await desktopRecordingUpload(engine, post('rec.jsonl', new Uint8Array(4), 'text/plain'));
      assert.equal(refused.status, 415);
      assert.equal((await engine.handlers.listImportedRuns({})).length, 1, 'nothing imported from either');
    } finally {
      await engine.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
