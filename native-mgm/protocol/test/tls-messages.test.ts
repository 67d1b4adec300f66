import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { parseStartTlsReply } from '../../client/tls/start-tls-reply.js';
import { ProtocolError } from '../../errors.js';
import type { Reply } from '../frames.js';
import { parseListCertsReply, parseTlsStatsReply } from '../messages/tls.js';
import { readFrames } from './read-frames.js';

/** The reply the reader frames from `bytes` (split at random sizes), for a kv request with `header`. */
function framed(bytes: string, header: string, chunks: number[] = [Number.MAX_SAFE_INTEGER]): Reply {
  const frames = readFrames(bytes, [{ kind: 'kv', header }], chunks);
  const f = frames[0];
  assert.ok(f?.type === 'reply', JSON.stringify(frames));
  return f.reply;
}

test('start tls replies (spec §9): Ok, Failed, Already Connected, and the parser error of a server before 8.3', () => {
  assert.deepEqual(parseStartTlsReply('start tls reply\nresult: Ok\n\n'), { kind: 'result', result: 'Ok' });
  assert.deepEqual(parseStartTlsReply('start tls reply\nresult: Failed\n\n'), { kind: 'result', result: 'Failed' });
  assert.deepEqual(parseStartTlsReply('start tls reply\nresult: Already Connected\n\n'), { kind: 'result', result: 'Already Connected' });
  assert.deepEqual(parseStartTlsReply("result: Unknown command, 'start tls'\n\n"), { kind: 'parser-error', message: "Unknown command, 'start tls'" });
  assert.throws(() => parseStartTlsReply('version\nid: 1\n\n'), ProtocolError);
  assert.throws(() => parseStartTlsReply('start tls reply\n\n'), /without result/);
});

const STATS = 'get tls stats reply\naccepted: 12\nupgraded: 7\ncurrent: 3\ntls: 2\nauthfail: 4\n\n';
const CERTS =
  'list certs reply\nsession: 5\naddress: 10.0.0.9\nserial: 0A1B2C\nname: NDB Node Jan 2026\nexpires: 01-Apr-2026\n' +
  'session: 8\naddress: 10.0.0.11\nserial: 3D4E5F\nname: NDB Node Feb 2026\nexpires: 02-May-2026\n\n';

test('get tls stats and list certs: golden bytes, split anywhere', () => {
  fc.assert(
    fc.property(fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 8 }), (chunks) => {
      assert.deepEqual(parseTlsStatsReply(framed(STATS, 'get tls stats reply', chunks)), { accepted: 12, upgraded: 7, current: 3, tls: 2, authfail: 4 });
      assert.deepEqual(parseListCertsReply(framed(CERTS, 'list certs reply', chunks)), [
        { session: 5, address: '10.0.0.9', serial: '0A1B2C', name: 'NDB Node Jan 2026', expires: '01-Apr-2026' },
        { session: 8, address: '10.0.0.11', serial: '3D4E5F', name: 'NDB Node Feb 2026', expires: '02-May-2026' },
      ]);
    }),
    { numRuns: 100 },
  );
  assert.deepEqual(parseListCertsReply(framed('list certs reply\n\n', 'list certs reply')), []);
  assert.throws(() => parseTlsStatsReply(framed('get tls stats reply\naccepted: 1\n\n', 'get tls stats reply')), /lacks "upgraded"/);
  assert.throws(() => parseTlsStatsReply(framed('Authorization failed\nError: Requires TLS\n\n', 'get tls stats reply')), /Requires TLS/);
});
