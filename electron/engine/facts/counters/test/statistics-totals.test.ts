import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eventTypeByName } from '../../../../../native-mgm/events/catalogue.js';
import { startSimulator } from '../../../../../native-mgm/sim/index.js';
import type { ClusterEvent } from '../../../../../native-mgm/index.js';
import { createEngine } from '../../../create-engine.js';
import { waitFor } from '../../../test/helpers.js';
import { StatisticsTotals } from '../statistics-totals.js';

const event = (name: string, source: number, fields: Record<string, number>): ClusterEvent => ({
  typeId: 0,
  name,
  category: 'STATISTICS',
  severity: 'INFO',
  sourceNodeId: source,
  receivedAt: 1000,
  fields,
  data: null,
  known: true,
  raw: {},
});

test('every instance report adds its deltas; the in-flight gauge and other events add nothing', () => {
  const totals = new StatisticsTotals();
  assert.equal(totals.apply(event('TransReportCounters', 2, { trans_count: 10, read_count: 40, simple_read_count: 4, conc_op_count: 99, attrinfo_count: 7 })), true);
  assert.equal(totals.apply(event('TransReportCounters', 2, { trans_count: 5, read_count: 1, conc_op_count: 99 })), true);
  assert.equal(totals.apply(event('OperationReportCounters', 2, { ops: 300 })), true);
  assert.equal(totals.apply(event('OperationReportCounters', 3, { ops: 1 })), true);
  assert.equal(totals.apply(event('MemoryUsage', 2, { pages_used: 5 })), false);
  const [two, three] = totals.view();
  assert.deepEqual(
    { ...two },
    { nodeId: 2, transactions: 15, commits: 0, reads: 41, simpleReads: 4, writes: 0, attrinfo: 7, aborts: 0, scans: 0, rangeScans: 0, operations: 300, reports: 3, lastReportAt: 1000 },
  );
  assert.equal(three?.operations, 1);
  // Every field the catalogue lists for the report is read, except the one gauge.
  const fields = eventTypeByName('TransReportCounters').fields?.map((f) => f.name) ?? [];
  const counted = new StatisticsTotals();
  counted.apply(event('TransReportCounters', 9, Object.fromEntries(fields.map((f) => [f, 1]))));
  const sums = counted.view()[0];
  assert.ok(sums);
  assert.equal(Object.entries(sums).filter(([k, v]) => !['nodeId', 'reports', 'lastReportAt', 'operations'].includes(k) && v === 1).length, fields.length - 1);
});

test('on the simulator the totals equal what the data nodes sent, and never go back across a node failure and restart', async () => {
  // Idle until the engine listens, so every transaction the nodes report is one the engine can have seen.
  const sim = await startSimulator({ scenario: 'idle', dataNodes: 4, tcInstances: 3, lqhInstances: 2, speed: 10 });
  const engine = await createEngine({ host: 'serve', clusters: [{ connectstring: sim.connectstring }], pollIntervalMs: 200 });
  await waitFor('the event stream', async () => (await engine.handlers.getSnapshot({})).connection.eventStream.status === 'live');
  // What the data nodes sent, counted at the source, beside the engine's totals.
  const sent = new Map<number, number>();
  const transWord = eventTypeByName('TransReportCounters');
  const word = (transWord.fields?.find((f) => f.name === 'trans_count')?.word ?? 0) - 1;
  const off = sim.model.onEvent((e) => {
    if (e.type === transWord.id) sent.set(e.source, (sent.get(e.source) ?? 0) + (e.body[word] ?? 0));
  });
  sim.model.setLoad('steady');
  const totalOf = async (id: number): Promise<number> => (await engine.handlers.getCounters({})).nodes.find((n) => n.nodeId === id)?.transactions ?? 0;
  try {
    const victim = [...sim.model.data.keys()][1] as number;
    await waitFor('reports from the victim', async () => (await totalOf(victim)) > 0);
    const seen: number[] = [];
    const sample = setInterval(() => void totalOf(victim).then((v) => seen.push(v)), 50);
    try {
      const beforeFailure = sent.get(victim) ?? 0;
      // Down 2 s of wall time: 0.3 s (3 s of sim time) was shorter than the engine's poll and this wait on a loaded machine.
      sim.model.failNode(victim, { autoRestart: true, downMs: 20_000 });
      await waitFor('the victim down', async () => (await engine.handlers.getSnapshot({})).nodes.find((n) => n.nodeId === victim)?.status === 'NO_CONTACT');
      await waitFor('the victim started again', async () => (await engine.handlers.getSnapshot({})).nodes.find((n) => n.nodeId === victim)?.status === 'STARTED', 60_000);
      await waitFor('the victim reporting load again', async () => (await totalOf(victim)) > beforeFailure);
    } finally {
      clearInterval(sample);
    }
    for (let i = 1; i < seen.length; i++) assert.ok((seen[i] ?? 0) >= (seen[i - 1] ?? 0), `total went back from ${seen[i - 1]} to ${seen[i]}`);

    // Nothing lost and nothing counted twice: the engine's total is never above what was sent, and catches up.
    for (const id of sim.model.data.keys()) {
      const sentBefore = sent.get(id) ?? 0;
      await waitFor(`node ${id}'s total to reach what it had sent`, async () => (await totalOf(id)) >= sentBefore);
      const total = await totalOf(id);
      assert.ok(total <= (sent.get(id) ?? 0), `node ${id}: total ${total} above the ${sent.get(id)} sent`);
    }
  } finally {
    off();
    await engine.close();
    await sim.close();
  }
});
