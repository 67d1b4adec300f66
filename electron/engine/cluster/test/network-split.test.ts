import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ClusterSnapshot } from '../../../contract/schemas/snapshot.js';
import { createMetricsExporter } from '../../../serve/metrics/exporter.js';
import { parsePrometheusText } from '../../../serve/test/prom-text.js';
import { createEngine } from '../../create-engine.js';
import { waitFor } from '../../test/helpers.js';

/** ArbitResult / NDBStopForced figures of a split (spec §6.7; 2305: "arbitrator shut down this node"). */
const ARBITRATOR_SAYS_WIN = 46;
const ARBIT_SHUTDOWN = 2305;

test('the simulator\'s network split: node-down and NO_CONTACT for the losing half only, though it reported the winners failed', async (t) => {
  const engine = await createEngine({ host: 'serve', actionsEnabled: false, pollIntervalMs: 250, simulator: { scenario: 'arbitration', dataNodes: 4, speed: 20, sql: false } });
  t.after(() => engine.close());
  const events = await waitFor(
    'a split whose losing half is back',
    async () => {
      const list = await engine.handlers.getEvents({ limit: 10_000 });
      const stopped = list.filter((e) => e.name === 'NDBStopForced' && e.fields.error === ARBIT_SHUTDOWN);
      const back = stopped.length > 0 && stopped.every((s) => list.some((e) => e.name === 'NDBStartCompleted' && e.sourceNodeId === s.sourceNodeId && e.seq > s.seq));
      return back ? list : null;
    },
    120_000,
  );
  const losers = [...new Set(events.filter((e) => e.name === 'NDBStopForced').map((e) => e.sourceNodeId))].sort();
  const snapshot = (await engine.handlers.getSnapshot({})) as ClusterSnapshot;
  const dataNodes = snapshot.nodes.filter((n) => n.type === 'NDB').map((n) => n.nodeId);
  const winners = dataNodes.filter((id) => !losers.includes(id));
  assert.equal(losers.length, 2, 'half of the four data nodes lost');
  const president = events.find((e) => e.name === 'ArbitResult' && (e.fields.code ?? 0) % 65536 === ARBITRATOR_SAYS_WIN)?.sourceNodeId;
  assert.ok(president !== undefined && winners.includes(president), 'the arbitrator chose the other half');
  for (const w of winners) {
    assert.ok(events.some((e) => e.name === 'NODE_FAILREP' && e.fields.failed_node === w && losers.includes(e.sourceNodeId)), `the losing half reported winner ${w} failed`);
  }

  const history = await engine.handlers.getAlertHistory({});
  const down = history.entries.filter((a) => a.kind === 'node-down').map((a) => a.nodeId ?? -1);
  assert.deepEqual([...new Set(down)].sort(), losers, 'node-down alerts for the losers, none for the winners');
  assert.equal(history.entries.filter((a) => a.kind === 'node-group-offline').length, 0, 'no node group looked offline');
  const timeline = await engine.handlers.getTimeline({});
  for (const w of winners) {
    const segments = timeline.nodes.find((n) => n.nodeId === w)?.segments ?? [];
    assert.deepEqual(segments.map((s) => s.status), ['STARTED'], `winner ${w} never left STARTED`);
  }
  for (const l of losers) assert.ok(timeline.nodes.find((n) => n.nodeId === l)?.segments.some((s) => s.status === 'NO_CONTACT'), `loser ${l} went down`);
  const scrape = await createMetricsExporter(engine.handlers).scrape();
  assert.ok(scrape.ok);
  const raised = parsePrometheusText(scrape.body).samples.filter((s) => s.name === 'ndbtop_alerts_raised_total' && s.labels.kind === 'node_down');
  assert.equal(raised.reduce((sum, s) => sum + s.value, 0), down.length, '/metrics counts the same node-down alerts');
});
