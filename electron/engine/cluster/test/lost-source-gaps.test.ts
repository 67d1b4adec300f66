import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ConnectionInput } from '../tracker-input.js';
import { exportHistory } from '../../facts/history/history-export.js';
import { PolledCluster, dataMemoryEvent, statisticsEvent as event } from '../../test/tracker-fixture.js';

const S = 1000;

function connection(status: ConnectionInput['status'], stream: ConnectionInput['eventStream']['status']): ConnectionInput {
  return { status, connectstring: 'localhost:1186', mgmd: { host: 'localhost', port: 1186, nodeId: 3, since: 0 }, serverVersion: '9.0.0', failovers: 0, lastError: null, eventStream: { status: stream } };
}


/** One TC and one LQH report and a data-memory figure from each node: 5000 transactions per 5 s period, 40 % of memory. */
function reportAll(cluster: PolledCluster, at: number): void {
  for (const node of [1, 2]) {
    cluster.tracker.apply({ kind: 'event', t: at, event: event('TransReportCounters', 35, node, at, { trans_count: 5000, commit_count: 5000, read_count: 100 }) });
    cluster.tracker.apply({ kind: 'event', t: at, event: event('OperationReportCounters', 36, node, at, { ops: 100 }) });
    cluster.tracker.apply({ kind: 'event', t: at, event: dataMemoryEvent(node, at, 40) });
  }
}

test('a lost management server and event stream leave a gap from the next second: history, exports, run summaries and node views carry nothing old', () => {
  const cluster = new PolledCluster(2);
  const { tracker } = cluster;
  tracker.apply({ kind: 'connection', t: 0, connection: connection('live', 'live') });
  cluster.poll(0);
  tracker.apply({ kind: 'run', t: 500, op: 'start', runId: 'r1', name: 'load', tags: {} });
  for (let t = 1 * S; t <= 5 * S; t += S) {
    reportAll(cluster, t - 100);
    cluster.poll(t - 50);
    tracker.apply({ kind: 'tick', t });
  }
  // The server is killed: both links drop at once; the ticks go on.
  tracker.apply({ kind: 'connection', t: 5.2 * S, connection: connection('reconnecting', 'reconnecting') });
  for (let t = 6 * S; t <= 14 * S; t += S) tracker.apply({ kind: 'tick', t });
  tracker.apply({ kind: 'run', t: 14.5 * S, op: 'stop', runId: 'r1' });

  const h = tracker.history.query({ metrics: ['transactions', 'dataMemory'], nodeIds: [1] });
  const before = h.at.map((at, i) => [at, ...h.series.map((s) => s.values[i])]).filter(([at]) => (at ?? 0) <= 5 * S);
  const after = h.at.map((at, i) => [at, ...h.series.map((s) => s.values[i])]).filter(([at]) => (at ?? 0) > 5.2 * S);
  assert.equal(before.length, 5);
  assert.ok(before.every((row) => row.slice(1).every((v) => v !== null)), `samples while reporting: ${JSON.stringify(before)}`);
  assert.equal(after.length, 9);
  assert.ok(after.every((row) => row.slice(1).every((v) => v === null)), `every second after the loss is a gap: ${JSON.stringify(after)}`);

  const csv = exportHistory(tracker.history, { clusterId: 'c1', name: 'test', exportedAt: 15 * S }, 'csv').content.trim().split('\n');
  const header = csv[0]?.split(',') ?? [];
  const col = header.indexOf('cluster.transactions (/s)');
  assert.ok(col > 0, header.join(','));
  const lastRow = csv.at(-1)?.split(',') ?? [];
  assert.equal(lastRow[col], '', 'CSV: an empty cell, not the last value');
  const json = JSON.parse(exportHistory(tracker.history, { clusterId: 'c1', name: 'test', exportedAt: 15 * S }, 'json').content) as { series: Array<{ key: string; values: Array<number | null> }> };
  assert.equal(json.series.find((s) => s.key === 'cluster.transactions')?.values.at(-1), null, 'JSON: null');

  const run = tracker.runs.list()[0];
  assert.ok(run);
  const report = tracker.runReport(run);
  assert.equal(report.summary.transactions?.samples, 5, 'the run summary counts only the seconds with reports');

  const snap = tracker.snapshot();
  assert.equal(snap.rates, null, 'no cluster total from a lost stream');
  for (const n of snap.nodes.filter((x) => x.type === 'NDB')) {
    assert.equal(n.rates?.stale, true, `node ${n.nodeId} rates marked stale`);
    assert.equal(n.memory.data?.stale, true, `node ${n.nodeId} memory marked stale`);
  }
});

test('an export taken while the management server is lost marks each of its series last-seen, with why and since when, as the page does', () => {
  const cluster = new PolledCluster(2);
  const { tracker } = cluster;
  tracker.apply({ kind: 'connection', t: 0, connection: connection('live', 'live') });
  cluster.poll(0);
  for (let t = 1 * S; t <= 5 * S; t += S) {
    reportAll(cluster, t - 100);
    cluster.poll(t - 50);
    tracker.apply({ kind: 'tick', t });
  }
  const exportNow = (format: 'csv' | 'json') => exportHistory(tracker.history, { clusterId: 'c1', name: 'test', exportedAt: 15 * S }, format, {}, [], tracker.snapshot()).content;
  // While live nothing is marked.
  assert.ok(!exportNow('csv').split('\n')[0]?.includes('last seen'));
  assert.deepEqual((JSON.parse(exportNow('json')) as { stale: unknown[] }).stale, []);

  tracker.apply({ kind: 'connection', t: 5.2 * S, connection: { ...connection('reconnecting', 'reconnecting'), lastError: 'connect ECONNREFUSED 127.0.0.1:1186' } });
  for (let t = 6 * S; t <= 14 * S; t += S) tracker.apply({ kind: 'tick', t });
  const lostSince = tracker.snapshot().connection.trouble?.since;
  assert.equal(lostSince, 5.2 * S);

  const header = exportNow('csv').split('\n')[0]?.split(',') ?? [];
  const seenAt = (key: string): number => {
    const h = tracker.history.query({ metrics: ['transactions', 'dataMemory'], nodeIds: [1] });
    const s = h.series.find((x) => x.key === key);
    let i = h.at.length - 1;
    while (i >= 0 && (s?.values[i] ?? null) === null) i--;
    return h.at[i] ?? -1;
  };
  for (const [key, unit] of [['cluster.transactions', '/s'], ['node.1.dataMemory', '%']] as const) {
    const expected = `${key} (${unit}) [last seen ${new Date(seenAt(key)).toISOString()}; ndbtop lost the management server since ${new Date(5.2 * S).toISOString()}]`;
    assert.ok(header.includes(expected), `CSV header has "${expected}": ${header.join(' | ')}`);
  }
  const json = JSON.parse(exportNow('json')) as { stale: Array<{ key: string; lastSeenAt: number; why: string; since: number }> };
  const tx = json.stale.find((s) => s.key === 'cluster.transactions');
  assert.deepEqual(tx, { key: 'cluster.transactions', lastSeenAt: seenAt('cluster.transactions'), why: 'ndbtop lost the management server', since: 5.2 * S });
  assert.ok(seenAt('cluster.transactions') <= 5 * S && seenAt('cluster.transactions') > 0);
  // Every series of the lost source, none left out.
  const keys = (JSON.parse(exportNow('json')) as { series: Array<{ key: string }> }).series.map((s) => s.key);
  assert.deepEqual(json.stale.map((s) => s.key).sort(), keys.filter((k) => !/hottestThread|redoFill/.test(k)).sort());
});
