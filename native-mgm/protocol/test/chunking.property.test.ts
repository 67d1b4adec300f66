import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { SPEC_REPLIES } from '../../test/fixtures/spec-transcripts.js';
import type { ReplyShape } from '../frames.js';
import { readFrames } from './read-frames.js';

const kv = (header: string): ReplyShape => ({ kind: 'kv', header });

/** Complete replies a command connection can carry back to back, with the shape the client would announce. */
const REPLIES: Array<[string, ReplyShape]> = [
  [SPEC_REPLIES.getVersion, kv('version')],
  [SPEC_REPLIES.getStatus, kv('node status')],
  [SPEC_REPLIES.getMgmdNodeId, kv('get mgmd nodeid reply')],
  [SPEC_REPLIES.restartRefused, kv('restart reply')],
  [SPEC_REPLIES.stopOk, kv('stop reply')],
  [SPEC_REPLIES.endSession, { kind: 'line', header: 'end session reply' }],
  ["result: Missing arg., '\n'\n\n", kv('stop reply')],
  ["result: Unknown command, 'x'\n\n", kv('version')],
  [`get config reply\nresult: Ok\nContent-Length: 81\n\n${'Q'.repeat(76)}\nQQ==\n`, { kind: 'config' }],
  ['dump events reply\nresult: Ok\nevents: 1\n\nlog event reply\ntype=50\ntime=0\nsource_nodeid=2\ngth=0\npage_size_bytes=32768\npages_used=1\npages_total=2\nblock=249\n\n', { kind: 'dump-events' }],
];

test('any sequence of replies parses the same under any chunking', () => {
  fc.assert(
    fc.property(
      fc.array(fc.integer({ min: 0, max: REPLIES.length - 1 }), { minLength: 1, maxLength: 12 }),
      fc.array(fc.integer({ min: 1, max: 300 }), { minLength: 1, maxLength: 20 }),
      (picks, chunks) => {
        const chosen = picks.map((i) => REPLIES[i] as [string, ReplyShape]);
        const bytes = chosen.map(([b]) => b).join('');
        const shapes = chosen.map(([, s]) => s);
        const whole = readFrames(bytes, shapes);
        assert.equal(whole.length, chosen.length);
        assert.ok(whole.every((f) => f.type === 'reply'));
        assert.deepEqual(readFrames(bytes, shapes, chunks), whole);
      },
    ),
    { numRuns: 300, seed: 4711 },
  );
});

test('the event stream parses the same under any chunking, with pings only between records', () => {
  fc.assert(
    fc.property(fc.array(fc.integer({ min: 1, max: 64 }), { minLength: 1, maxLength: 10 }), (chunks) => {
      const whole = readFrames(SPEC_REPLIES.eventStream, [{ kind: 'listen' }]);
      assert.deepEqual(readFrames(SPEC_REPLIES.eventStream, [{ kind: 'listen' }], chunks), whole);
    }),
    { numRuns: 300, seed: 42 },
  );
});
