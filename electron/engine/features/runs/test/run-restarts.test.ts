import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatReports } from '../report-format.js';
import { PolledCluster } from '../../../test/tracker-fixture.js';

test("a run's report lists every data node down during it: down before and still down, down and back, not one over before", () => {
  const cluster = new PolledCluster(4);
  const { tracker } = cluster;
  cluster.poll(0);
  cluster.set(1, 'NO_CONTACT').poll(1000);
  cluster.set(1, 'STARTED').poll(5000);
  cluster.set(4, 'NO_CONTACT').poll(9000);
  tracker.apply({ kind: 'run', t: 10_000, op: 'start', runId: 'r1', name: 'load', tags: {} });
  cluster.set(2, 'NOT_STARTED').poll(20_000);
  cluster.set(2, 'STARTING').poll(25_000);
  cluster.set(2, 'STARTED').poll(42_500);
  tracker.apply({ kind: 'run', t: 60_000, op: 'stop', runId: 'r1' });
  const run = tracker.runs.list()[0];
  assert.ok(run);
  const report = tracker.runReport(run);
  assert.deepEqual(report.summary.restarts, [
    { nodeId: 4, downAt: 9000, upAt: null, phases: null },
    { nodeId: 2, downAt: 20_000, upAt: 42_500, phases: null },
  ]);
  const text = formatReports({ runs: [report], comparison: null }, 'md');
  assert.match(text, /### Data nodes down during the run\n\n\| node \| down \| back \| took \| phases \(restart_info\) \|\n\| --- \| --- \| --- \| --- \| --- \|\n\| 4 \| .+ \| not back \| {2}\| n\/a \|\n\| 2 \| .+ \| .+ \| 22\.5 s \| n\/a \|/);
});
