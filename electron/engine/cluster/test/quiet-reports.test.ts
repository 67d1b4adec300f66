import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PolledCluster, quietListener, statisticsEvent } from '../../test/tracker-fixture.js';

const tc = (node: number, at: number, reads: number) =>
  statisticsEvent('TransReportCounters', 35, node, at, { trans_count: 0, commit_count: 0, read_count: reads, simple_read_count: 0, write_count: 0, attrinfo_count: 0, conc_op_count: 0, abort_count: 0, scan_count: 0, range_scan_count: 0 });

test('an idle cluster’s zero reports ask for no push; a report that moves a node’s rates does, and a poll still does', () => {
  let changed = 0;
  const cluster = new PolledCluster(4, {}, { ...quietListener, changed: () => (changed += 1) });
  cluster.poll(1000);
  // Every instance reports once per 5 s period: the first reports make the rates, the ones after repeat them.
  for (let t = 2000; t < 30_000; t += 5000) for (let id = 1; id <= 4; id++) cluster.tracker.apply({ kind: 'event', t, event: tc(id, t, 0) });
  const before = cluster.tracker.snapshot();
  assert.ok(before.nodes.filter((n) => n.type === 'NDB').every((n) => n.rates?.reads === 0), 'every data node has its (zero) rates');
  changed = 0;
  for (let id = 1; id <= 4; id++) cluster.tracker.apply({ kind: 'event', t: 32_000, event: tc(id, 32_000, 0) });
  assert.equal(changed, 0, 'reports that leave every node’s rates as they were change nothing a push carries');
  const after = cluster.tracker.snapshot();
  for (const n of after.nodes) assert.equal(n, before.nodes.find((b) => b.nodeId === n.nodeId), `node ${n.nodeId}'s view reused`);
  cluster.tracker.apply({ kind: 'event', t: 33_000, event: tc(2, 33_000, 5000) });
  assert.equal(changed, 1, 'a report that moves its node’s rates asks for a push');
  assert.ok((cluster.tracker.snapshot().nodes.find((n) => n.nodeId === 2)?.rates?.reads ?? 0) > 0);
  cluster.poll(34_000);
  assert.equal(changed, 2, 'a poll asks for one (its time is in the snapshot)');
});
