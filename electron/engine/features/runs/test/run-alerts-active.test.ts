import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatReports } from '../report-format.js';
import { PolledCluster, dataMemoryEvent as memory } from '../../../test/tracker-fixture.js';


test('an alert raised before a run and active through it belongs to the run; one over before the run does not', () => {
  const cluster = new PolledCluster(2);
  const { tracker } = cluster;
  cluster.poll(0);
  // Node 1 at 95 % from before the run, for good; node 2 at 85 % for a while, over well before the run.
  tracker.apply({ kind: 'event', t: 1000, event: memory(1, 1000, 95) });
  tracker.apply({ kind: 'event', t: 1000, event: memory(2, 1000, 85) });
  tracker.apply({ kind: 'event', t: 2000, event: memory(2, 2000, 10) });
  tracker.apply({ kind: 'event', t: 200_000, event: memory(2, 200_000, 10) });
  assert.ok(tracker.snapshot().alerts.some((a) => a.nodeId === 2 && a.resolvedAt !== null), 'node 2 warning over');
  tracker.apply({ kind: 'run', t: 300_000, op: 'start', runId: 'r1', name: 'load', tags: {} });
  tracker.apply({ kind: 'tick', t: 301_000 });
  tracker.apply({ kind: 'run', t: 360_000, op: 'stop', runId: 'r1' });
  const run = tracker.runs.list()[0];
  assert.ok(run);
  const report = tracker.runReport(run);
  assert.deepEqual(
    report.summary.alerts.map((a) => [a.kind, a.severity, a.nodeId]),
    [['memory-critical', 'critical', 1]],
  );
  const text = formatReports({ runs: [report], comparison: null }, 'md');
  assert.doesNotMatch(text, /no warnings or alerts/);
  assert.match(text, /critical: Node 1: data memory 95 % used .*\(raised before the run, still active when it began\)/);
});

test('a run report says what the alert says now: a held memory alert whose use fell gives its peak and its use now', () => {
  const cluster = new PolledCluster(2);
  const { tracker } = cluster;
  cluster.poll(0);
  tracker.apply({ kind: 'run', t: 1000, op: 'start', runId: 'r1', name: 'load', tags: {} });
  tracker.apply({ kind: 'event', t: 2000, event: memory(1, 2000, 95) });
  // Down to 87 %: still over the clear mark (85 %), so the critical alert is held, and its words follow.
  tracker.apply({ kind: 'event', t: 3000, event: memory(1, 3000, 87) });
  tracker.apply({ kind: 'run', t: 60_000, op: 'stop', runId: 'r1' });
  const run = tracker.runs.list()[0];
  assert.ok(run);
  const [alert] = tracker.runReport(run).summary.alerts;
  assert.equal(alert?.message, 'Node 1: data memory peaked at 95 % used, now 87 % (alert at 90 %)');
  assert.equal(alert?.message, tracker.snapshot().alerts.find((a) => a.kind === 'memory-critical')?.message, 'the strip and the report say the same');
});
