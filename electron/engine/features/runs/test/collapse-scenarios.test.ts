import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Alert } from '../../../../contract/schemas/events.js';
import { COLLAPSE_TIMING } from '../../../../../native-mgm/sim/scenarios/collapse.js';
import { createEngine } from '../../../create-engine.js';
import { startServeServer } from '../../../../serve/serve-server.js';
import { httpRunMarker } from '../../../../serve/runs-client.js';
import { waitFor } from '../../../test/helpers.js';

const collapses = (alerts: readonly Alert[]): Alert[] => alerts.filter((a) => a.kind === 'throughput-collapse');

test('the collapse scenario raises one collapse alert at the fall, not at its marked phases, and lists that nothing else changed', async () => {
  const speed = 8;
  const engine = await createEngine({
    host: 'serve',
    pollIntervalMs: 500,
    simulator: { scenario: 'collapse', dataNodes: 2, speed, waitForMarker: true },
    collapse: { dropShare: 0.5, windowMs: 4000 },
  });
  const server = await startServeServer({ engine, staticDir: '/nonexistent', port: 0 });
  try {
    engine.simulator?.marks.attach(httpRunMarker({ url: server.url }));
    const last = `threads=${COLLAPSE_TIMING.steps.at(-1)?.threads}`;
    const run = await waitFor('the run to stop', async () => (await engine.handlers.getSnapshot({})).runs?.find((r) => r.end !== null), 90_000);
    const snap = await engine.handlers.getSnapshot({});
    const alerts = collapses(snap.alerts);
    assert.equal(alerts.length, 1, `one collapse alert, got ${JSON.stringify(alerts)}`);
    const alert = alerts[0];
    assert.ok(alert);
    const phase = run.phases.find((p) => p.name === last);
    assert.ok(phase, `phase ${last} was marked`);
    // The fall starts fallAfterMs of sim time into the last phase: the alert is about it, not about the mark.
    assert.ok(alert.at > phase.start + COLLAPSE_TIMING.fallAfterMs / speed - 1000, `alert at +${alert.at - phase.start} ms into ${last}`);
    assert.ok(alert.at < (run.end ?? 0), 'during the run');
    assert.match(alert.message, /collapsed: −([5-9]\d) %/);
    assert.match(alert.message, /nothing else changed/);
    // The SQL source's figures of that window: the data nodes' threads idle along, no transporter overloaded.
    assert.match(alert.message, /inside the data nodes in that window: LDM threads: \d+ % busy on average, most on node \d \(\d+ %\);.*transporters overloaded or slowed down: never/);
    assert.ok(snap.nodes.filter((n) => n.type === 'NDB').every((n) => n.status === 'STARTED'), 'nodes stay STARTED');
    const report = (await engine.handlers.getRunReports({ runIds: [run.id], figure: 'transactions' })).runs[0];
    assert.deepEqual(report?.summary.alerts.map((a) => a.kind), ['throughput-collapse']);
    // The cliff came from outside the data nodes, and their figures say so.
    const verdict = report?.summary.bottleneck;
    assert.equal(verdict?.kind, 'outside-data-nodes', verdict?.text);
    assert.match(verdict?.text ?? '', /^Data-node threads stayed under [1-6]0 % busy while throughput was flat \(busiest: \w+ on node \d, \d+ %\): the limit is outside the data nodes/);
    // The scenario's own shape: in its last phase throughput ends more than 80 % below where it was.
    const tx = report?.phases.find((p) => p.name === last)?.summary.transactions;
    assert.ok(tx && tx.min < 0.2 * tx.max, `min ${tx?.min} against max ${tx?.max}`);
    assert.equal(engine.simulator?.marks.lastError, null);
  } finally {
    await server.close();
    await engine.close();
  }
});

test('a rolling restart dips each node in turn but the cluster does not collapse', async () => {
  const engine = await createEngine({ host: 'serve', pollIntervalMs: 500, simulator: { scenario: 'rolling-restart', dataNodes: 4, speed: 4 } });
  try {
    // Two restarts done: nodes left STARTED and came back, one at a time, under steady load.
    await waitFor(
      'two data nodes restarted',
      async () => {
        const timeline = await engine.handlers.getTimeline({});
        const restarted = timeline.nodes.filter((n) => n.segments.some((s) => s.status !== 'STARTED') && n.segments.at(-1)?.status === 'STARTED');
        return restarted.length >= 2;
      },
      120_000,
    );
    const snap = await engine.handlers.getSnapshot({});
    assert.deepEqual(collapses(snap.alerts), []);
    assert.ok((snap.rates?.transactions ?? 0) > 0, 'under load');
  } finally {
    await engine.close();
  }
});
