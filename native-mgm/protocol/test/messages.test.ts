import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SPEC_REPLIES } from '../../test/fixtures/spec-transcripts.js';
import { AuthorizationError, CommandFailedError, ProtocolError, ServerParserError } from '../../errors.js';
import { parseEventRecord } from '../../events/parse-event.js';
import { decodeTextWords, encodeTextWords } from '../../events/text-words.js';
import type { Reply, ReplyShape } from '../frames.js';
import { parseStartBackupReply } from '../messages/backup.js';
import { DumpEventRecords, parseDumpEventsReply } from '../messages/dump-events.js';
import { parseListenReply } from '../messages/listen.js';
import { parseClusterLogFilterReply, parseClusterLogLevelsReply, parseSetLogFilterReply } from '../messages/log-levels.js';
import { parseMgmdNodeIdReply } from '../messages/mgmd-nodeid.js';
import { parseNodeCommandReply } from '../messages/node-command.js';
import { parseResultReply } from '../messages/result.js';
import { parseStatusReply } from '../messages/status.js';
import { parseVersionReply } from '../messages/version.js';
import { readFrames } from './read-frames.js';

function replyOf(bytes: string, shape: ReplyShape): Reply {
  const frames = readFrames(bytes, [shape]);
  const f = frames[0];
  assert.ok(frames.length >= 1 && f?.type === 'reply', JSON.stringify(frames));
  return f.reply;
}
const kv = (bytes: string, header: string) => replyOf(bytes, { kind: 'kv', header });

test('get version', () => {
  assert.deepEqual(parseVersionReply(kv(SPEC_REPLIES.getVersion, 'version')), {
    id: 525315,
    major: 8,
    minor: 4,
    build: 3,
    string: 'mysql-8.4.3 ndb-8.4.3',
    mysqlMajor: 8,
    mysqlMinor: 4,
    mysqlBuild: 3,
  });
  const old = parseVersionReply(kv('version\nid: 460324\nmajor: 7\nminor: 6\nbuild: 36\nstring: mysql-5.7.44 ndb-7.6.36\n\n', 'version'));
  assert.equal(old.mysqlMajor, null);
});

test('get status (spec §5.7): sorted by id, typed, master found, placeholders unknown', () => {
  const nodes = parseStatusReply(kv(SPEC_REPLIES.getStatus, 'node status'));
  assert.deepEqual(nodes.map((n) => n.nodeId), [1, 2, 3, 4, 5, 6, 7]);
  const byId = new Map(nodes.map((n) => [n.nodeId, n]));
  assert.deepEqual(byId.get(2), {
    nodeId: 2,
    type: 'NDB',
    status: 'STARTED',
    statusRaw: 'STARTED',
    startPhase: 0,
    nodeGroup: 0,
    version: '8.4.3',
    versionRaw: 525315,
    mysqlVersion: '8.4.3',
    mysqlVersionRaw: 525315,
    address: '10.0.0.12',
    connectCount: 1,
    dynamicId: -1,
    isSingleUser: false,
    isMaster: true,
    extra: {},
  });
  assert.equal(byId.get(3)?.isMaster, false);
  assert.equal(byId.get(3)?.dynamicId, 2);
  assert.equal(byId.get(1)?.type, 'MGM');
  assert.equal(byId.get(1)?.nodeGroup, null, 'node_group of an MGM node is a placeholder');
  assert.equal(byId.get(7)?.status, 'NO_CONTACT');
  assert.equal(byId.get(7)?.address, null, '0.0.0.0 of a free API slot is a placeholder');
  assert.equal(byId.get(7)?.version, null);
});

const node = (id: number, fields: Record<string, string | number>) =>
  Object.entries(fields)
    .map(([k, v]) => `node.${id}.${k}: ${v}\n`)
    .join('');
const ndb = (id: number, over: Record<string, string | number> = {}) =>
  node(id, {
    type: 'NDB',
    status: 'STARTED',
    version: 525315,
    mysql_version: 525315,
    startphase: 0,
    dynamic_id: id,
    node_group: 0,
    connect_count: 1,
    address: '10.0.0.1',
    ...over,
  });
const status = (...blocks: string[]) => kv(`node status\nnodes: ${blocks.length}\n${blocks.join('')}\n`, 'node status');

test('get status: down data node placeholders, no node group, unknown status word, unknown fields kept', () => {
  const nodes = parseStatusReply(
    status(
      ndb(2, { status: 'NO_CONTACT', version: 0, mysql_version: 0, dynamic_id: 0, node_group: 0, connect_count: 0, address: '' }),
      ndb(3, { node_group: -256, status: 'SINGLE USER MODE' }),
      ndb(4, { status: 'WEIRD', is_single_user: 0, future_field: 'x:y' }),
    ),
  );
  const [down, noGroup, weird] = nodes;
  assert.equal(down?.nodeGroup, null);
  assert.equal(down?.connectCount, null);
  assert.equal(down?.dynamicId, null);
  assert.equal(down?.address, null);
  assert.equal(down?.isSingleUser, null, 'field absent: not known');
  assert.equal(noGroup?.nodeGroup, 'none');
  assert.equal(noGroup?.status, 'SINGLE USER MODE');
  assert.equal(weird?.status, 'UNKNOWN');
  assert.equal(weird?.statusRaw, 'WEIRD');
  assert.deepEqual(weird?.extra, { future_field: 'x:y' });
  assert.equal(weird?.isSingleUser, false);
});

test('get status: master is the negative dynamic id; without one, the smallest positive among running nodes', () => {
  const withNeg = parseStatusReply(status(ndb(2, { dynamic_id: 3 }), ndb(3, { dynamic_id: -2 })));
  assert.deepEqual(withNeg.filter((n) => n.isMaster).map((n) => n.nodeId), [3]);
  const old = parseStatusReply(status(ndb(2, { dynamic_id: 65539 }), ndb(3, { dynamic_id: 65537 }), ndb(4, { dynamic_id: 1, status: 'NOT_STARTED' })));
  assert.deepEqual(old.filter((n) => n.isMaster).map((n) => n.nodeId), [3]);
});

test('get status: framing errors are protocol errors', () => {
  assert.throws(() => parseStatusReply(kv(`node status\nnodes: 2\n${ndb(2)}\n`, 'node status')), /count mismatch/);
  assert.throws(() => parseStatusReply(kv(`node status\nnodes: 2\n${ndb(2)}${ndb(3)}${ndb(2)}\n`, 'node status')), /listed twice/);
  assert.throws(() => parseStatusReply(status(ndb(2, { version: 'abc' }))), ProtocolError);
  assert.throws(() => parseStatusReply(status(ndb(0))), /out of range/);
  assert.throws(() => parseStatusReply(status(ndb(2, { type: 'XYZ' }))), /unknown node type/);
});

test('small replies', () => {
  assert.equal(parseMgmdNodeIdReply(kv(SPEC_REPLIES.getMgmdNodeId, 'get mgmd nodeid reply')), 1);
  assert.deepEqual(parseNodeCommandReply(kv(SPEC_REPLIES.restartOk, 'restart reply'), 'restart node v2', 'restarted'), { count: 1, disconnect: false });
  assert.deepEqual(parseNodeCommandReply(kv('stop reply\nresult: Ok\nstopped: 1\n\n', 'stop reply'), 'stop', 'stopped'), { count: 1, disconnect: null });
  assert.deepEqual(parseStartBackupReply(kv(SPEC_REPLIES.startBackup, 'start backup reply')), { backupId: 12 });
  assert.deepEqual(parseStartBackupReply(kv('start backup reply\nresult: Ok\n\n', 'start backup reply')), { backupId: null });
  parseResultReply(kv(SPEC_REPLIES.reportEvent, 'report event reply'), 'report event', 'ok');
  assert.equal(parseSetLogFilterReply(kv(SPEC_REPLIES.setLogFilter, 'set logfilter reply')), true);
  assert.equal(parseClusterLogLevelsReply(kv(SPEC_REPLIES.getClusterLogLevel, 'get cluster loglevel')).schema, 7);
  assert.deepEqual(parseClusterLogFilterReply(kv(SPEC_REPLIES.clusterLogInfo, 'clusterlog')), {
    enabled: true,
    debug: false,
    info: true,
    warning: true,
    error: true,
    critical: true,
    alert: true,
  });
  parseListenReply(kv(SPEC_REPLIES.listenEventOk, 'listen event'));
});

test('failures carry the server text as it is, typed by kind', () => {
  const refused = kv(SPEC_REPLIES.restartRefused, 'restart reply');
  assert.throws(
    () => parseNodeCommandReply(refused, 'restart node v2', 'restarted'),
    (e: unknown) => e instanceof CommandFailedError && e.result === '5028-Node shutdown would cause system crash: Permanent error: Application error',
  );
  assert.throws(
    () => parseListenReply(kv(SPEC_REPLIES.listenEventUnknownCategory, 'listen event')),
    (e: unknown) => e instanceof CommandFailedError && e.result === 'Unknown category: >WARNING<',
  );
  assert.throws(() => parseVersionReply(kv("result: Unknown command, 'get version'\n\n", 'version')), ServerParserError);
  assert.throws(() => parseStatusReply(kv('Authorization failed\nError: Requires TLS\n\n', 'node status')), AuthorizationError);
});

function recordOf(text: string) {
  const frames = readFrames(`listen event\nresult: 0\n\n${text}`, [{ kind: 'listen' }]);
  const rec = frames[1];
  assert.ok(rec?.type === 'record', JSON.stringify(frames));
  return parseEventRecord(rec.pairs, 1234);
}

test('event records: typed fields, unsigned words, signed gth, receipt time stamped', () => {
  const trans = recordOf('log event reply\ntype=35\ntime=0\nsource_nodeid=2\ntrans_count=1520\ncommit_count=1498\nread_count=-1\nsimple_read_count=8800\nwrite_count=4410\nattrinfo_count=31250\nconc_op_count=12\nabort_count=22\nscan_count=40\nrange_scan_count=15\n\n');
  assert.equal(trans.name, 'TransReportCounters');
  assert.equal(trans.category, 'STATISTICS');
  assert.equal(trans.sourceNodeId, 2);
  assert.equal(trans.receivedAt, 1234);
  assert.equal(trans.fields.read_count, 4294967295, 'counters >= 2^31 print negative; they are unsigned');
  assert.equal(trans.fields.trans_count, 1520);
  const mem = recordOf('log event reply\ntype=50\ntime=0\nsource_nodeid=3\ngth=-1\npage_size_bytes=32768\npages_used=3120\npages_total=15974\nblock=249\n\n');
  assert.equal(mem.fields.gth, -1);
  assert.equal(mem.severity, 'INFO');
  const failed = recordOf('log event reply\ntype=27\ntime=0\nsource_nodeid=2\nblock=0\nfailed_node=3\ncompleting_node=0\n\n');
  assert.equal(failed.severity, 'ALERT');
});

test('event records: data= words with trailing space, empty data, text decoding, unknown types kept', () => {
  const info = recordOf('log event reply\ntype=49\ntime=0\nsource_nodeid=1\ndata=1819043144 111 \n\n');
  assert.deepEqual(info.data, [1819043144, 111]);
  assert.equal(decodeTextWords(info.data ?? []), 'Hello');
  assert.deepEqual(encodeTextWords('Hello'), [1819043144, 111]);
  assert.deepEqual(recordOf('log event reply\ntype=12\ntime=0\nsource_nodeid=2\ndata=\n\n').data, []);
  const unknown = recordOf('log event reply\ntype=88\ntime=0\nsource_nodeid=2\nnode=3\nms=1500\n\n');
  assert.equal(unknown.known, false);
  assert.equal(unknown.name, 'Unknown88');
  assert.deepEqual(unknown.fields, { node: 3, ms: 1500 });
  assert.deepEqual(unknown.raw, { node: '3', ms: '1500' });
});

test('SingleUser (52) has a field named type: after the header it is that field, not a second header (spec §6.6)', () => {
  const entered = recordOf('log event reply\ntype=52\ntime=0\nsource_nodeid=2\ntype=1\nnode_id=7\n\n');
  assert.equal(entered.typeId, 52);
  assert.equal(entered.name, 'SingleUser');
  assert.deepEqual(entered.fields, { type: 1, node_id: 7 });
  // Inside the header a second type is still one record naming two types.
  assert.throws(() => recordOf('log event reply\ntype=52\ntype=35\ntime=0\nsource_nodeid=2\ntype=1\nnode_id=7\n\n'), /repeats "type"/);
  // A type whose catalogue has no such field does not take it as one.
  assert.throws(() => recordOf('log event reply\ntype=27\ntime=0\nsource_nodeid=2\nblock=0\nfailed_node=3\ncompleting_node=0\ntype=1\n\n'), /repeats "type"/);
});

test('event records missing required keys or fields are protocol errors', () => {
  assert.throws(() => recordOf('log event reply\ntype=1\ntime=0\n\n'), /source_nodeid/);
  assert.throws(() => recordOf('log event reply\ntype=1\ntime=0\nsource_nodeid=1\n\n'), /lacks field "node"/);
  assert.throws(() => recordOf('log event reply\ntype=x\ntime=0\nsource_nodeid=1\n\n'), ProtocolError);
});

test('dump events: inline records become events', () => {
  const rec = (n: number, b: number) => `log event reply\ntype=50\ntime=0\nsource_nodeid=${n}\ngth=0\npage_size_bytes=32768\npages_used=3120\npages_total=15974\nblock=${b}\n\n`;
  const reply = replyOf(`dump events reply\nresult: Ok\nevents: 2\n\n${rec(2, 249)}${rec(2, 248)}`, { kind: 'dump-events' });
  const events = parseDumpEventsReply(reply, 5);
  assert.deepEqual(events.map((e) => [e.name, e.sourceNodeId, e.fields.block]), [
    ['MemoryUsage', 2, 249],
    ['MemoryUsage', 2, 248],
  ]);
  assert.throws(() => parseDumpEventsReply(replyOf('dump events reply\nresult: invalid nodes: \'x\'\n\n', { kind: 'dump-events' }), 5), CommandFailedError);
});

test('dump events: records typed in place by the shape\'s sink are the events the pairs give, in chunks split anywhere', () => {
  const rec = (n: number, b: number) => `log event reply\ntype=50\ntime=0\nsource_nodeid=${n}\ngth=0\npage_size_bytes=32768\npages_used=${3000 + n}\npages_total=15974\nblock=${b}\n\n`;
  // A blank around `=` and a key the catalogue does not name go the slow way in both.
  const odd = 'log event reply\ntype=50\ntime=0\nsource_nodeid=9\ngth = -1\npage_size_bytes=32768\npages_used=7\npages_total=10\nblock=249\nextra=x\n\n';
  const bytes = `dump events reply\nresult: Ok\nevents: 3\n\n${rec(2, 249)}${rec(3, 248)}${odd}`;
  const expected = parseDumpEventsReply(replyOf(bytes, { kind: 'dump-events' }), 5);
  for (const chunk of [1, 7, 64, bytes.length]) {
    const records = new DumpEventRecords();
    const frames = readFrames(bytes, [{ kind: 'dump-events', records }], [chunk]);
    assert.ok(frames.length === 1 && frames[0]?.type === 'reply', JSON.stringify(frames));
    assert.equal(frames[0].reply.kind === 'reply' && frames[0].reply.records.length, 0, 'no pairs kept');
    assert.deepEqual(parseDumpEventsReply(frames[0].reply, 5, records), expected);
  }
});

test('dump events: a malformed record fails the request, and the session reads on', () => {
  const bad = 'dump events reply\nresult: Ok\nevents: 1\n\nlog event reply\ntype=50\ntime=0\n\n';
  const records = new DumpEventRecords();
  const frames = readFrames(`${bad}check connection reply\nresult: Ok\n\n`, [{ kind: 'dump-events', records }, { kind: 'kv', header: 'check connection reply' }]);
  assert.deepEqual(frames.map((f) => f.type), ['reply', 'reply']);
  const reply = frames[0]?.type === 'reply' ? frames[0].reply : null;
  assert.ok(reply);
  assert.throws(() => parseDumpEventsReply(reply, 5, records), (e: unknown) => e instanceof ProtocolError && /source_nodeid/.test(e.message));
});
