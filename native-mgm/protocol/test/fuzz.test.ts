import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { SPEC_REPLIES } from '../../test/fixtures/spec-transcripts.js';
import { MgmError } from '../../errors.js';
import { parseEventRecord } from '../../events/parse-event.js';
import type { Frame, ReplyShape } from '../frames.js';
import { parseStatusReply } from '../messages/status.js';
import { parseVersionReply } from '../messages/version.js';
import { StreamReader } from '../stream-reader.js';

const LIMITS = { maxLineBytes: 4096, maxReplyBytes: 64 * 1024, maxRecordLines: 64, maxDumpRecords: 64 };

type Mutation =
  | { kind: 'flip'; at: number; byte: number }
  | { kind: 'insert'; at: number; bytes: number[] }
  | { kind: 'delete'; at: number; len: number }
  | { kind: 'truncate'; at: number }
  | { kind: 'oversize'; at: number; len: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), bytes: fc.array(fc.constantFrom(10, 13, 58, 61, 32, 45, 48, 57, 0, 255), { maxLength: 8 }) }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), len: fc.integer({ min: 1, max: 20 }) }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('oversize' as const), at: fc.nat(), len: fc.integer({ min: 4000, max: 200_000 }) }),
);

function mutate(input: Buffer, m: Mutation): Buffer {
  const at = m.at % (input.length + 1);
  switch (m.kind) {
    case 'flip': {
      const out = Buffer.from(input);
      if (out.length > 0) out[at % out.length] = m.byte;
      return out;
    }
    case 'insert':
      return Buffer.concat([input.subarray(0, at), Buffer.from(m.bytes), input.subarray(at)]);
    case 'delete':
      return Buffer.concat([input.subarray(0, at), input.subarray(at + m.len)]);
    case 'truncate':
      return input.subarray(0, at);
    case 'oversize':
      return Buffer.concat([input.subarray(0, at), Buffer.alloc(m.len, 0x41), input.subarray(at)]);
  }
}

const CASES: Array<[string, ReplyShape[]]> = [
  [SPEC_REPLIES.getStatus, [{ kind: 'kv', header: 'node status' }]],
  [SPEC_REPLIES.getVersion + SPEC_REPLIES.getStatus, [{ kind: 'kv', header: 'version' }, { kind: 'kv', header: 'node status' }]],
  [SPEC_REPLIES.eventStream, [{ kind: 'listen' }]],
  [`dump events reply\nresult: Ok\nevents: 2\n\n${'log event reply\ntype=50\ntime=0\nsource_nodeid=2\ngth=0\npage_size_bytes=32768\npages_used=1\npages_total=2\nblock=249\n\n'.repeat(2)}`, [{ kind: 'dump-events' }]],
  [`get config reply\nresult: Ok\nContent-Length: 8\n\nQUFBQQ==\n`, [{ kind: 'config' }]],
];

/** Everything downstream of the reader must also fail only with typed errors. */
function consume(frame: Frame): void {
  try {
    if (frame.type === 'record') parseEventRecord(frame.pairs, 0);
    if (frame.type === 'reply') {
      if (frame.reply.kind === 'reply' && frame.reply.header === 'node status') parseStatusReply(frame.reply);
      if (frame.reply.kind === 'reply' && frame.reply.header === 'version') parseVersionReply(frame.reply);
    }
  } catch (err) {
    assert.ok(err instanceof MgmError, `untyped error escaped: ${String(err)}`);
  }
}

test('mutated, truncated and oversized input yields frames or typed errors only, with bounded buffering', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: CASES.length - 1 }),
      fc.array(mutation, { minLength: 1, maxLength: 4 }),
      fc.array(fc.integer({ min: 1, max: 512 }), { minLength: 1, maxLength: 8 }),
      (which, mutations, chunks) => {
        const [text, shapes] = CASES[which] as [string, ReplyShape[]];
        const bytes = mutations.reduce(mutate, Buffer.from(text));
        const reader = new StreamReader(LIMITS);
        shapes.forEach((s) => reader.expect(s));
        let offset = 0;
        for (let i = 0; offset < bytes.length; i++) {
          const size = chunks[i % chunks.length] ?? 1;
          reader.feed(bytes.subarray(offset, offset + size), (f) => {
            assert.ok(['reply', 'record', 'ping', 'stray-line', 'error'].includes(f.type));
            if (f.type === 'error') assert.ok(f.error instanceof MgmError);
            consume(f);
          });
          offset += size;
          // Held bytes never exceed one line limit plus one chunk, or one reply limit for a config body.
          assert.ok(reader.buffered <= LIMITS.maxReplyBytes + 512, `buffered ${reader.buffered}`);
        }
      },
    ),
    { numRuns: 2000, seed: 1186 },
  );
});
