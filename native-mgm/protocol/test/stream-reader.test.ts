import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SPEC_REPLIES } from '../../test/fixtures/spec-transcripts.js';
import type { Frame, ReplyShape } from '../frames.js';
import { readFrames, readSplitAt } from './read-frames.js';
import { StreamReader } from '../stream-reader.js';

const kv = (header: string): ReplyShape => ({ kind: 'kv', header });

const GOLDEN: Array<[string, string, ReplyShape[]]> = [
  ['get version', SPEC_REPLIES.getVersion, [kv('version')]],
  ['get status', SPEC_REPLIES.getStatus, [kv('node status')]],
  ['get mgmd nodeid', SPEC_REPLIES.getMgmdNodeId, [kv('get mgmd nodeid reply')]],
  ['get cluster loglevel', SPEC_REPLIES.getClusterLogLevel, [kv('get cluster loglevel')]],
  ['clusterlog', SPEC_REPLIES.clusterLogInfo, [kv('clusterlog')]],
  ['restart refused', SPEC_REPLIES.restartRefused, [kv('restart reply')]],
  ['listen event + stream', SPEC_REPLIES.eventStream, [{ kind: 'listen' }]],
  ['end session then a reply', SPEC_REPLIES.endSession + SPEC_REPLIES.checkConnection, [{ kind: 'line', header: 'end session reply' }, kv('check connection reply')]],
];

test('golden transcripts from the spec parse the same when split at every byte offset', () => {
  for (const [name, bytes, shapes] of GOLDEN) {
    const whole = readFrames(bytes, shapes);
    assert.ok(whole.length > 0, name);
    assert.ok(!whole.some((f) => f.type === 'error'), `${name}: ${JSON.stringify(whole)}`);
    for (let at = 0; at <= Buffer.byteLength(bytes); at++) {
      assert.deepEqual(readSplitAt(bytes, shapes, at), whole, `${name} split at ${at}`);
    }
    assert.deepEqual(readFrames(bytes, shapes, [1]), whole, `${name} one byte at a time`);
  }
});

test('get version reply frames into header and ordered key lines', () => {
  const [frame] = readFrames(SPEC_REPLIES.getVersion, [kv('version')]);
  assert.deepEqual(frame, {
    type: 'reply',
    reply: {
      kind: 'reply',
      header: 'version',
      pairs: [
        ['id', '525315'],
        ['major', '8'],
        ['minor', '4'],
        ['build', '3'],
        ['string', 'mysql-8.4.3 ndb-8.4.3'],
        ['mysql_major', '8'],
        ['mysql_minor', '4'],
        ['mysql_build', '3'],
      ],
      records: [],
      body: null,
    },
  });
});

test('the event stream after listen event: reply, pings between records, records split at first "="', () => {
  const frames = readFrames(SPEC_REPLIES.eventStream, [{ kind: 'listen' }]);
  assert.deepEqual(
    frames.map((f) => (f.type === 'record' ? `record ${f.pairs[0]?.[1]}` : f.type)),
    ['reply', 'ping', 'record 35', 'record 36', 'ping', 'record 1', 'record 27', 'ping', 'record 13'],
  );
  const trans = frames[2];
  assert.ok(trans?.type === 'record');
  assert.deepEqual(trans.pairs.slice(0, 4), [
    ['type', '35'],
    ['time', '0'],
    ['source_nodeid', '2'],
    ['trans_count', '1520'],
  ]);
});

test('listen event refused keeps the connection a command session', () => {
  const bytes = SPEC_REPLIES.listenEventUnknownCategory + SPEC_REPLIES.checkConnection;
  const frames = readFrames(bytes, [{ kind: 'listen' }, kv('check connection reply')]);
  assert.equal(frames.length, 2);
  assert.ok(frames.every((f) => f.type === 'reply' && f.reply.kind === 'reply'));
});

test('header-less parser errors, including the two-line Missing arg., are framed as parser errors', () => {
  const bytes = "result: Unknown command, 'get statistics'\n\nresult: Missing arg., '\n'\n\nversion\nid: 1\n\n";
  const frames = readFrames(bytes, [kv('node status'), kv('listen event'), kv('version')]);
  assert.deepEqual(
    frames.map((f) => (f.type === 'reply' ? f.reply : f)),
    [
      { kind: 'parser-error', message: "Unknown command, 'get statistics'" },
      { kind: 'parser-error', message: "Missing arg., '\n'" },
      { kind: 'reply', header: 'version', pairs: [['id', '1']], records: [], body: null },
    ],
  );
});

test('authorization failure of a TLS-only server is its own reply kind', () => {
  const frames = readFrames('Authorization failed\nError: Requires TLS\n\n', [kv('node status')]);
  assert.deepEqual(frames, [{ type: 'reply', reply: { kind: 'auth-failed', message: 'Requires TLS' } }]);
});

test('values keep colons (IPv6), empty values and CRLF endings are handled', () => {
  const bytes = 'node status\r\nnodes: 1\r\nnode.2.address: fd00::12\r\nnode.3.address: \r\n\r\n';
  const [frame] = readFrames(bytes, [kv('node status')]);
  assert.ok(frame?.type === 'reply' && frame.reply.kind === 'reply');
  assert.deepEqual(frame.reply.pairs, [
    ['nodes', '1'],
    ['node.2.address', 'fd00::12'],
    ['node.3.address', ''],
  ]);
});

test('dump events carries its records inline after the header', () => {
  const record = (node: number, block: number) =>
    `log event reply\ntype=50\ntime=0\nsource_nodeid=${node}\ngth=0\npage_size_bytes=32768\npages_used=3120\npages_total=15974\nblock=${block}\n\n`;
  const bytes = `dump events reply\nresult: Ok\nevents: 4\n\n${record(2, 249)}${record(2, 248)}${record(3, 249)}${record(3, 248)}check connection reply\nresult: Ok\n\n`;
  const frames = readFrames(bytes, [{ kind: 'dump-events' }, kv('check connection reply')], [7]);
  assert.equal(frames.length, 2);
  const dump = frames[0];
  assert.ok(dump?.type === 'reply' && dump.reply.kind === 'reply');
  assert.equal(dump.reply.records.length, 4);
  assert.deepEqual(dump.reply.records[3]?.at(-1), ['block', '248']);
});

test('dump events error replies have no records', () => {
  const bytes = 'dump events reply\nresult: ndb_logevent_type 99 not supported\n\n';
  const [frame] = readFrames(bytes, [{ kind: 'dump-events' }]);
  assert.ok(frame?.type === 'reply' && frame.reply.kind === 'reply');
  assert.deepEqual(frame.reply.records, []);
});

test('get config body: exactly Content-Length bytes (LFs every 76 chars included), one LF, no empty line', () => {
  const body = `${'A'.repeat(76)}\n${'B'.repeat(76)}\nCC==`;
  const bytes = `get config reply\nresult: Ok\nContent-Length: ${body.length}\nContent-Type: ndbconfig/octet-stream\nContent-Transfer-Encoding: base64\n\n${body}\ncheck connection reply\nresult: Ok\n\n`;
  for (const chunks of [[Number.MAX_SAFE_INTEGER], [1], [3, 50]]) {
    const frames = readFrames(bytes, [{ kind: 'config' }, kv('check connection reply')], chunks);
    assert.equal(frames.length, 2, JSON.stringify(frames));
    const cfg = frames[0];
    assert.ok(cfg?.type === 'reply' && cfg.reply.kind === 'reply');
    assert.equal(cfg.reply.body, body);
  }
});

function onlyError(frames: Frame[]): { message: string; fatal: boolean } {
  const errs = frames.filter((f) => f.type === 'error');
  assert.equal(errs.length, 1, JSON.stringify(frames));
  const e = errs[0];
  assert.ok(e?.type === 'error');
  return { message: e.error.message, fatal: e.fatal };
}

test('an unexpected header is a fatal protocol error, and the reader then ignores the rest', () => {
  const frames = readFrames('stop reply\nresult: Ok\n\nversion\n\n', [kv('version'), kv('version')]);
  const err = onlyError(frames);
  assert.equal(err.fatal, true);
  assert.match(err.message, /expected reply "version"/);
  assert.equal(frames.length, 1);
});

test("a sentence of the server's own instead of a reply (one starting) is that request's answer, and the next reply reads", () => {
  const bytes = `Waiting for arbitrator selection\n\n${SPEC_REPLIES.getStatus}`;
  const whole = readFrames(bytes, [kv('node status'), kv('node status')]);
  assert.deepEqual(whole[0], { type: 'reply', reply: { kind: 'unexpected', expected: 'node status', lines: ['Waiting for arbitrator selection'] } });
  assert.equal(whole.length, 2);
  assert.ok(whole[1]?.type === 'reply' && whole[1].reply.kind === 'reply' && whole[1].reply.header === 'node status');
  for (let at = 0; at <= Buffer.byteLength(bytes); at++) assert.deepEqual(readSplitAt(bytes, [kv('node status'), kv('node status')], at), whole, `split at ${at}`);
  // Not a sentence: binary bytes, another protocol's banner, a reply of another command stay fatal.
  for (const garbage of ['\u0000\u00ffnonsense: yes\nmore\n\n', 'HTTP/1.1 400 Bad Request\r\n\r\n', 'SSH-2.0-OpenSSH_9.6\r\n\r\n', '220 mail ESMTP\n\n']) {
    assert.equal(onlyError(readFrames(garbage, [kv('node status')])).fatal, true, JSON.stringify(garbage));
  }
});

test('data with no request outstanding is a fatal protocol error', () => {
  assert.match(onlyError(readFrames('check connection reply\n', [])).message, /unsolicited/);
});

test('a line longer than the limit is a fatal error even before its LF arrives', () => {
  const err = onlyError(readFrames(`node status\nnodes: ${'9'.repeat(5000)}`, [kv('node status')], [100], { maxLineBytes: 1024 }));
  assert.equal(err.fatal, true);
  assert.match(err.message, /line too long/);
});

test('a reply above the size limit is a fatal error', () => {
  const lines = Array.from({ length: 200 }, (_, i) => `node.${i}.type: NDB`).join('\n');
  const err = onlyError(readFrames(`node status\n${lines}\n\n`, [kv('node status')], [64], { maxReplyBytes: 2048 }));
  assert.match(err.message, /reply too large/);
});

test('a key line without a colon in a reply is a fatal error', () => {
  assert.match(onlyError(readFrames('node status\nnodes 3\n\n', [kv('node status')])).message, /malformed line/);
});

test('a record interrupted by another record header is dropped and the stream goes on', () => {
  const bytes = 'listen event\nresult: 0\n\nlog event reply\ntype=1\nlog event reply\ntype=0\ntime=0\nsource_nodeid=1\nnode=3\n\n<PING>\n';
  const frames = readFrames(bytes, [{ kind: 'listen' }]);
  assert.deepEqual(
    frames.map((f) => f.type + (f.type === 'error' ? `:${f.fatal}` : '')),
    ['reply', 'error:false', 'record', 'ping'],
  );
});

test('a malformed record line drops only that record; stray lines outside records are reported, not parsed', () => {
  const bytes = 'listen event\nresult: 0\n\nhello\nlog event reply\ntype=1\ngarbage\nmore\n\nlog event reply\ntype=0\ntime=0\nsource_nodeid=1\nnode=2\n\n';
  const frames = readFrames(bytes, [{ kind: 'listen' }]);
  assert.deepEqual(
    frames.map((f) => f.type),
    ['reply', 'stray-line', 'error', 'record'],
  );
});

test('resync swallows the leftover-argument error replies until check connection answers', () => {
  const bytes = "result: Unknown command, 'set clientversion'\n\nresult: Unknown command, 'major: 8'\n\nresult: Unknown command, 'minor: 4'\n\ncheck connection reply\nresult: Ok\n\nversion\nid: 1\n\n";
  const reader = new StreamReader();
  reader.expect(kv('set clientversion reply'), true);
  reader.expect(kv('version'));
  const frames: Frame[] = [];
  reader.feed(Buffer.from(bytes), (f) => frames.push(f));
  assert.deepEqual(
    frames.map((f) => (f.type === 'reply' ? f.reply.kind + (f.reply.kind === 'reply' ? `:${f.reply.header}` : '') : f.type)),
    ['parser-error', 'reply:check connection reply', 'reply:version'],
  );
});
