import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RestartState } from '../../../contract/schemas/node.js';
import { parsePrometheusText, type Sample } from '../../test/prom-text.js';
import { createMetricsExporter } from '../exporter.js';
import { SyntheticClusters } from './synthetic-engine.js';

// Issue 36: the management server's start phase and restart_info's status joined into one restart state per data
// node, which the snapshot carries and /metrics exports, whichever source said it last.
test('a restarting node has one restart state in the snapshot and in /metrics, from whichever source knows best', async (t) => {
  const clusters = new SyntheticClusters();
  t.after(() => clusters.engine.close());
  const id = clusters.add({ name: 'prod', dataNodes: 4, apiNodes: 0, mgmNodes: 1, replicas: 2 });
  clusters.ndbinfo(id);
  const exporter = createMetricsExporter(clusters.engine.handlers);
  const node = clusters.dataNodes(id)[1] as number;
  const state = async (): Promise<{ view: RestartState | null | undefined; metric: Sample[] }> => {
    const snap = await clusters.engine.handlers.getSnapshot({ clusterId: id });
    const result = await exporter.scrape();
    assert.ok(result.ok, result.ok ? '' : result.message);
    const metric = parsePrometheusText(result.body).samples.filter((s) => s.name === 'ndbtop_node_restart_state' && s.labels.node_id === String(node));
    return { view: snap.nodes.find((n) => n.nodeId === node)?.restartState, metric };
  };
  const labels = (m: Sample[]): Array<Record<string, string | undefined>> => m.map((s) => ({ state: s.labels.state, phase: s.labels.phase, source: s.labels.source }));

  clusters.setStatus(id, node, 'NO_CONTACT');
  clusters.restartInfo(id, node, 'NODE_FAILED', 2);
  clusters.setStatus(id, node, 'STARTING', 4);
  // restart_info still reads the node joining the cluster; the start phase says it is further on.
  clusters.restartInfo(id, node, 'INCLUDED_IN_HB_PROTOCOL', 5);
  let seen = await state();
  assert.equal(seen.view?.words, 'copying the dictionary');
  assert.deepEqual(labels(seen.metric), [{ state: 'restarting', phase: 'dictionary', source: 'mgm' }]);

  clusters.restartInfo(id, node, 'COPY_FRAGMENTS_STARTED', 16);
  seen = await state();
  assert.equal(seen.view?.words, 'copying data from live nodes');
  assert.equal(seen.view?.source, 'ndbinfo');
  assert.deepEqual(labels(seen.metric), [{ state: 'restarting', phase: 'copy', source: 'ndbinfo' }]);

  clusters.setStatus(id, node, 'STARTED');
  // Read after the node was STARTED: restart_info lags, the node does not wait for a local checkpoint.
  clusters.restartInfo(id, node, 'WAIT_LCP_FOR_RESTART', 17);
  seen = await state();
  assert.equal(seen.view?.state, 'started');
  assert.deepEqual(labels(seen.metric), [{ state: 'started', phase: '', source: 'mgm' }]);
});
