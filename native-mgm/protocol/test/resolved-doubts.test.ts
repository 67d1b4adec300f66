import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ServerParserError } from '../../errors.js';
import { EventRecordParser } from '../../events/parse-event.js';
import type { ClusterEvent } from '../../types.js';
import type { Frame } from '../frames.js';
import { acceptReply } from '../messages/reply-fields.js';
import { StatusLines } from '../messages/status.js';
import { parseVersionReply } from '../messages/version.js';
import { readFrames } from './read-frames.js';

/**
 * The client's parser against golden bytes of spec §14 and of text the server passes on as given (issue 24 items 6
 * and 9); the simulator's side of the same bytes is tested off a raw socket in sim/test.
 */

const utf8 = (text: string): Buffer => Buffer.from(text, 'utf8');
const chunkings = [[Number.MAX_SAFE_INTEGER], [1], [3, 7]] as const;

function onlyReply(frames: Frame[]): Extract<Frame, { type: 'reply' }>['reply'] {
  assert.equal(frames.length, 1, JSON.stringify(frames));
  const f = frames[0];
  assert.ok(f?.type === 'reply');
  return f.reply;
}

test('UTF-8 in a version string and a host name reads as the text it is, whatever the chunking', () => {
  // ü is C3 BC, ô C3 B4: as one char per byte they would read "Ã¼" and "Ã´".
  const version = utf8('version\nid: 525315\nmajor: 8\nminor: 4\nbuild: 3\nstring: mysql-8.4.3 ndb-8.4.3-Tüb\n\n');
  const status = Buffer.concat([
    utf8('node status\nnodes: 1\n'),
    utf8('node.2.type: NDB\nnode.2.status: STARTED\nnode.2.version: 525315\nnode.2.mysql_version: 525315\nnode.2.startphase: 0\n'),
    utf8('node.2.dynamic_id: -1\nnode.2.node_group: 0\nnode.2.connect_count: 1\nnode.2.address: hôst-2.exämple\nnode.2.is_single_user: 0\n\n'),
  ]);
  for (const chunks of chunkings) {
    assert.equal(parseVersionReply(onlyReply(readFrames(version, [{ kind: 'kv', header: 'version' }], chunks))).string, 'mysql-8.4.3 ndb-8.4.3-Tüb');
    // Twice with one parser each: the second poll meets the address kept from the first.
    for (let poll = 0; poll < 2; poll++) {
      const sink = new StatusLines();
      const nodes = sink.finish(onlyReply(readFrames(status, [{ kind: 'kv', header: 'node status', sink }], chunks)));
      assert.equal(nodes[0]?.address, 'hôst-2.exämple');
    }
  }
});

test('parser errors are header-less `result: <message>, \'<token>\'` lines, the token echoing UTF-8 as sent (§14.4)', () => {
  const cases: Array<[bytes: Buffer, message: string]> = [
    [utf8("result: Unknown command, 'get stätus'\n\n"), "Unknown command, 'get stätus'"],
    [utf8("result: Unknown argument, 'types NDB'\n\n"), "Unknown argument, 'types NDB'"],
    [utf8("result: Missing arg., '\n'\n\n"), "Missing arg., '\n'"],
    [utf8("result: Missing arg., '<NULL>'\n\n"), "Missing arg., '<NULL>'"],
  ];
  for (const [bytes, message] of cases) {
    for (const chunks of chunkings) {
      const reply = onlyReply(readFrames(bytes, [{ kind: 'kv', header: 'node status' }], chunks));
      assert.deepEqual(reply, { kind: 'parser-error', message });
      assert.throws(() => acceptReply(reply, 'get status'), (err: unknown) => err instanceof ServerParserError && err.serverMessage === message);
    }
  }
});

test('statistics fields print as 32-bit signed deltas (%d): -1 is 2^32 - 1, -2^31 is 2^31; MemoryUsage gth stays signed (§14.8)', () => {
  const record = (body: string): Buffer => utf8(`log event reply\ntype=35\ntime=0\nsource_nodeid=2\n${body}\n`);
  const trans = record(
    'trans_count=-1\ncommit_count=-2147483648\nread_count=2147483647\nsimple_read_count=0\nwrite_count=-2\nattrinfo_count=1\nconc_op_count=-3\nabort_count=0\nscan_count=0\nrange_scan_count=0\n',
  );
  const memory = utf8('log event reply\ntype=50\ntime=0\nsource_nodeid=2\ngth=-90\npage_size_bytes=32768\npages_used=-1\npages_total=100\nblock=249\n\n');
  for (const chunks of chunkings) {
    const events = readEvents(Buffer.concat([trans, memory]), chunks);
    assert.deepEqual(events[0]?.fields, {
      trans_count: 4294967295,
      commit_count: 2147483648,
      read_count: 2147483647,
      simple_read_count: 0,
      write_count: 4294967294,
      attrinfo_count: 1,
      conc_op_count: 4294967293,
      abort_count: 0,
      scan_count: 0,
      range_scan_count: 0,
    });
    assert.equal(events[1]?.fields.gth, -90);
    assert.equal(events[1]?.fields.pages_used, 4294967295);
  }
});

/** The event stream after `listen event`, typed by an EventRecordParser as the client reads it. */
function readEvents(records: Buffer, chunks: readonly number[]): ClusterEvent[] {
  const sink = new EventRecordParser(() => 0);
  const frames = readFrames(Buffer.concat([utf8('listen event\nresult: 0\n\n'), records]), [{ kind: 'listen', records: sink }], chunks);
  return frames.flatMap((f) => (f.type === 'event' ? [f.event] : []));
}
