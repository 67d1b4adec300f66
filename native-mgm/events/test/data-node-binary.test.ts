import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ClusterEvent, NodeState } from '../../types.js';
import { parseStatusReply } from '../../protocol/messages/status.js';
import { parseEventRecord } from '../parse-event.js';
import { readFrames } from '../../protocol/test/read-frames.js';
import { DataNodeBinaryEvidence } from '../data-node-binary.js';

/** A record as the server prints it (golden bytes of §6.3), parsed the way the client parses `dump events` records. */
function event(type: number, source: number, fields: string, at: number): ClusterEvent {
  const lines = `type=${type}\ntime=0\nsource_nodeid=${source}\n${fields}`.trim().split('\n');
  return parseEventRecord(lines.map((l) => l.split('=', 2) as [string, string]), at);
}
const trans = (source: number, at: number): ClusterEvent =>
  event(35, source, 'trans_count=1\ncommit_count=1\nread_count=0\nsimple_read_count=0\nwrite_count=0\nattrinfo_count=0\nconc_op_count=0\nabort_count=0\nscan_count=0\nrange_scan_count=0', at);

function statusOf(): NodeState[] {
  const block = (id: number): string =>
    `node.${id}.type: NDB\nnode.${id}.status: STARTED\nnode.${id}.version: 525315\nnode.${id}.mysql_version: 525315\nnode.${id}.startphase: 0\nnode.${id}.dynamic_id: ${id}\nnode.${id}.node_group: 0\nnode.${id}.connect_count: 1\nnode.${id}.address: 10.0.0.${id}\nnode.${id}.is_single_user: 0\n`;
  const frames = readFrames(`node status\nnodes: 4\n${block(2)}${block(3)}${block(4)}${block(5)}\n`, [{ kind: 'kv', header: 'node status' }]);
  const f = frames[0];
  assert.ok(f?.type === 'reply');
  return parseStatusReply(f.reply);
}

test('ndbd and ndbmtd are told apart only where spec §14.11 says events show it', () => {
  const evidence = new DataNodeBinaryEvidence();
  // Node 2: JobStatistic, sent by the single-threaded scheduler only.
  evidence.observe(event(39, 2, 'mean_loop_count=12', 0));
  // Node 3: MTSignalStatistics, sent by ndbmtd's threads.
  evidence.observe(event(70, 3, 'mt_deliver_thread=0\nmt_prioa_count=1\nmt_prioa_size=1\nmt_priob_count=1\nmt_priob_size=1', 0));
  // Node 4: two TC reports within one 5 s period, so two TC instances.
  evidence.observe(trans(4, 1000));
  evidence.observe(trans(4, 2500));
  // Node 5: one report per 5 s proves nothing (ndbmtd with one TC instance looks the same).
  for (const at of [0, 5000, 10_000, 15_020]) evidence.observe(trans(5, at));
  const nodes = statusOf();
  evidence.annotate(nodes);
  assert.deepEqual(
    nodes.map((n) => [n.nodeId, n.dataNodeBinary ?? null]),
    [
      [2, 'ndbd'],
      [3, 'ndbmtd'],
      [4, 'ndbmtd'],
      [5, null],
    ],
  );
  // The latest evidence wins: node 2 restarted as ndbmtd.
  evidence.observe(event(70, 2, 'mt_deliver_thread=1\nmt_prioa_count=1\nmt_prioa_size=1\nmt_priob_count=1\nmt_priob_size=1', 20_000));
  assert.equal(evidence.binaryOf(2), 'ndbmtd');
});
