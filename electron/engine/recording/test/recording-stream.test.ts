import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { createEngine } from '../../create-engine.js';
import { LineSplitter } from '../line-splitter.js';
import { encodeMember, KEYFRAME, memberInfo, RUN_MARKS } from '../recording-member.js';
import { indexRecording } from '../recording-index.js';
import { openRecording, readRecording } from '../recording-reader.js';
import { createReplayEngine } from '../replay.js';
import { nodeArgs } from '../../../../scripts/test-source.js';
import { waitFor } from '../../test/helpers.js';

const HEADER = JSON.stringify({ format: 'ndbtop-recording', version: 1, createdAt: 1, engine: 'test' });

async function tempDir(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'ndbtop-stream-'));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

test('line splitter: the same lines whatever the chunking; a line over the bound is skipped and reported, never held', () => {
  fc.assert(
    fc.property(fc.array(fc.string({ maxLength: 40 }).map((s) => s.replace(/\n/g, ' ')), { maxLength: 30 }), fc.array(fc.integer({ min: 1, max: 17 }), { minLength: 1 }), (rows, cuts) => {
      const bytes = Buffer.from(rows.map((r) => `${r}\n`).join(''));
      const splitter = new LineSplitter();
      const out: string[] = [];
      for (let at = 0, i = 0; at < bytes.length; i++) {
        const size = cuts[i % cuts.length] ?? 1;
        for (const line of splitter.push(bytes.subarray(at, at + size))) if ('text' in line) out.push(line.text);
        at += size;
      }
      assert.deepEqual(out, rows.filter((r) => r !== ''));
      assert.equal(splitter.tail(), 0);
    }),
  );
  const small = new LineSplitter(10);
  const got = [...small.push(Buffer.from('short\n0123456789abcdef')), ...small.push(Buffer.from('ghij\nok\ntorn'))];
  assert.deepEqual(got, [{ text: 'short' }, { tooLong: 20 }, { text: 'ok' }]);
  assert.equal(small.tail(), 4, 'a last line without its newline is held, not yielded');
});

test('a member is plain gzip for any reader, and its header alone says its length, flags and time', () => {
  const a = encodeMember('{"a":1}\n', KEYFRAME, 1234.5);
  const b = encodeMember('{"b":2}\n', RUN_MARKS, 99);
  assert.equal(gunzipSync(Buffer.concat([a, b])).toString(), '{"a":1}\n{"b":2}\n', 'concatenated members are one gzip stream');
  assert.deepEqual(memberInfo(a), { length: a.length, flags: KEYFRAME, t: 1234.5 });
  assert.deepEqual(memberInfo(b.subarray(0, 30)), { length: b.length, flags: RUN_MARKS, t: 99 });
  assert.equal(memberInfo(a.subarray(0, 29)), null, 'a torn header is not one');
  assert.equal(memberInfo(Buffer.from('{"format":"ndbtop-recording"}')), null);
});

test('a recording far larger than the heap is read as a stream: 200 MB through a 48 MB heap, plain and compressed', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const plain = join(dir, 'big.jsonl');
    const out = createWriteStream(plain);
    out.write(`${HEADER}\n`);
    const pad = 'x'.repeat(900);
    let lines = 0;
    while (out.bytesWritten + out.writableLength < 200e6) {
      const ok = out.write(`{"c":"c1","kind":"tick","t":${lines++},"pad":"${pad}"}\n`);
      if (!ok) await new Promise<void>((r) => out.once('drain', () => r()));
    }
    await new Promise<void>((r) => out.end(() => r()));
    assert.ok((await stat(plain)).size >= 200e6);
    const child = nodeArgs(new URL('./fixtures/stream-child.ts', import.meta.url));
    const run = async (file: string) => {
      const { stdout } = await promisify(execFile)(process.execPath, ['--max-old-space-size=48', ...child, file], { timeout: 300_000 });
      return JSON.parse(stdout) as { lines: number; unreadable: number; peakHeap: number };
    };
    const read = await run(plain);
    assert.deepEqual({ lines: read.lines, unreadable: read.unreadable }, { lines, unreadable: 0 });
    assert.ok(read.peakHeap < 48e6, `peak heap ${read.peakHeap}`);

    // The same lines compressed, in members of ~1 MB as the recorder writes them.
    const gz = join(dir, 'big.rec');
    const members: Buffer[] = [encodeMember(`${HEADER}\n`, 0, 1)];
    const chunk = Array.from({ length: 1000 }, (_, i) => `{"c":"c1","kind":"tick","t":${i},"pad":"${pad}"}\n`).join('');
    for (let i = 0; i < 200; i++) members.push(encodeMember(chunk, 0, i));
    await writeFile(gz, Buffer.concat(members));
    const unpacked = await run(gz);
    assert.deepEqual({ lines: unpacked.lines, unreadable: unpacked.unreadable }, { lines: 200_000, unreadable: 0 });
  } finally {
    await cleanup();
  }
});

test('a torn last member (a kill inside the write): every complete line before the tear is read, and the tear reported', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const file = join(dir, 'torn');
    const first = encodeMember(`${HEADER}\n{"c":"c1","kind":"tick","t":1}\n`, 0, 1);
    const second = encodeMember('{"c":"c1","kind":"tick","t":2}\n{"c":"c1","kind":"tick","t":3}\n', 0, 2);
    for (const [cut, lines] of [[5, [1, 2, 3]], [second.length - 31, [1]]] as const) {
      await writeFile(file, Buffer.concat([first, second.subarray(0, second.length - cut)]));
      const rec = await readRecording(file);
      assert.deepEqual(rec.lines.map((l) => l.t), lines, `cut ${cut} bytes short`);
      assert.equal(rec.unreadable, 1);
      assert.match(rec.problems[0]?.error ?? '', /compressed data ends at byte/);
      const index = await indexRecording(file);
      assert.equal(index.indexedBytes, first.length, 'the index stops at the torn member');
    }
  } finally {
    await cleanup();
  }
});

test('keyframes: the index finds them from member headers, and a replay seeks to one and ends where the whole replay ends', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const file = join(dir, 'seek.rec');
    const live = await createEngine({ host: 'serve', pollIntervalMs: 200, recordFile: file, simulator: { scenario: 'steady', dataNodes: 2, speed: 5 } });
    try {
      await waitFor('two keyframes', async () => (await indexRecording(file)).keyframes.length >= 2, 40_000);
      await live.handlers.startRun({ name: 'late' });
      await new Promise((r) => setTimeout(r, 1500));
      await live.handlers.stopRun({});
    } finally {
      await live.close();
    }
    const index = await indexRecording(file);
    const second = index.keyframes[1];
    assert.ok(second && second.offset > 0);
    assert.deepEqual(index.runs.map((r) => [r.name, r.end !== null]), [['late', true]], 'run marks are indexed');
    const stream = await openRecording(file, { from: second.offset });
    const firstLine = (await stream.lines.next()).value;
    await stream.lines.return(undefined);
    assert.equal(firstLine?.kind, 'keyframe', 'a keyframe member opens with its keyframes');

    const whole = await createReplayEngine({ file, speed: Infinity });
    const reads: number[] = [];
    const sought = await createReplayEngine({ file, speed: Infinity, from: second.t + 100, onProgress: (done) => reads.push(done) });
    try {
      await Promise.all([whole.finished, sought.finished]);
      const [a, b] = [await whole.handlers.getSnapshot({}), await sought.handlers.getSnapshot({})];
      assert.deepEqual(b.nodes.map((n) => [n.nodeId, n.status, n.startPhase]), a.nodes.map((n) => [n.nodeId, n.status, n.startPhase]));
      assert.deepEqual((b.runs ?? []).map((r) => [r.id, r.name, r.end]), (a.runs ?? []).map((r) => [r.id, r.name, r.end]));
      assert.ok(reads.length > 0 && reads.every((d) => d > second.offset), 'nothing before the keyframe was read');
    } finally {
      await whole.close();
      await sought.close();
    }
  } finally {
    await cleanup();
  }
});
