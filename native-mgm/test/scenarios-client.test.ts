import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventStream } from '../client/event-stream.js';
import { MgmClient } from '../client/mgm-client.js';
import { startSimulator, type ScenarioName, type SimulatorOptions } from '../sim/index.js';
import type { ClusterEvent } from '../types.js';
import { waitUntil } from './wait.js';

async function watch(t: { after(fn: () => unknown): void }, scenario: ScenarioName, options: SimulatorOptions = {}) {
  const sim = await startSimulator({ dataNodes: 4, replicas: 2, scenario, speed: 50, ...options });
  const client = new MgmClient({ connectstring: sim.connectstring, backoff: { baseMs: 10, capMs: 100 } });
  const stream = new EventStream({ connectstring: sim.connectstring, backoff: { baseMs: 10, capMs: 100 } });
  const events: ClusterEvent[] = [];
  stream.events.on('event', (e) => events.push(e));
  t.after(async () => {
    stream.close();
    client.close();
    await sim.close();
  });
  await stream.start();
  return { sim, client, events };
}

test('scenario rolling-restart: nodes restart one at a time and no node group ever loses all members', async (t) => {
  const { client } = await watch(t, 'rolling-restart');
  const restarted = new Set<number>();
  await waitUntil('two different nodes seen restarting', async () => {
    const nodes = (await client.getStatus(['NDB'])).filter((n) => n.type === 'NDB');
    const down = nodes.filter((n) => n.status !== 'STARTED');
    down.forEach((n) => restarted.add(n.nodeId));
    const groups = new Map<number, number>();
    for (const n of nodes) if (n.status === 'STARTED' && typeof n.nodeGroup === 'number') groups.set(n.nodeGroup, (groups.get(n.nodeGroup) ?? 0) + 1);
    assert.equal(groups.size, 2, `a node group has no STARTED member: ${JSON.stringify(nodes.map((n) => [n.nodeId, n.status]))}`);
    assert.ok(down.length <= 2);
    return restarted.size >= 2 ? true : undefined;
  }, 60_000, 10);
});

test('scenario node-failure: a data node drops to NO_CONTACT and its angel brings it back', async (t) => {
  const { client, events } = await watch(t, 'node-failure');
  const failed = await waitUntil('a node in NO_CONTACT', async () => (await client.getStatus(['NDB'])).find((n) => n.status === 'NO_CONTACT')?.nodeId, 60_000, 10);
  await waitUntil(`node ${failed} STARTED again`, async () => ((await client.getStatus(['NDB'])).find((n) => n.nodeId === failed)?.status === 'STARTED' ? true : undefined), 60_000);
  assert.ok(events.some((e) => e.name === 'NODE_FAILREP' && e.fields.failed_node === failed));
  assert.ok(events.some((e) => e.name === 'ArbitResult'));
});

test('scenario mgmd-failover: the client moves to the surviving management server, the first comes back', async (t) => {
  const { client, sim } = await watch(t, 'mgmd-failover', { mgmNodes: 2 });
  await client.connect();
  await waitUntil('a failover', () => (client.state.failovers >= 1 && client.state.status === 'connected' ? true : undefined), 60_000);
  const firstId = sim.mgmds[0]?.nodeId ?? 1;
  await waitUntil('mgmd 1 back', async () => ((await client.getStatus(['MGM'])).find((n) => n.nodeId === firstId)?.status === 'CONNECTED' ? true : undefined), 60_000);
});

test('scenario benchmark: the run phase reaches more than a million reads per second across the cluster', async (t) => {
  const tcInstances = 4;
  const { events } = await watch(t, 'benchmark', { tcInstances, speed: 100 });
  const reports = await waitUntil('the run phase and the cool-down', () => {
    const trans = events.filter((e) => e.name === 'TransReportCounters');
    const max = Math.max(0, ...trans.map((e) => e.fields.read_count ?? 0));
    const last = trans.at(-1)?.fields.read_count ?? 0;
    return max > 0 && last < max / 2 ? trans : undefined;
  }, 60_000);
  // Each report covers exactly one 5 s period of one TC instance, so the plateau's mean report gives the rate.
  const max = Math.max(...reports.map((e) => e.fields.read_count ?? 0));
  const plateau = reports.map((e) => e.fields.read_count ?? 0).filter((v) => v >= 0.9 * max);
  const perReport = plateau.reduce((a, b) => a + b, 0) / plateau.length;
  const clusterReadsPerSecond = (perReport * tcInstances * 4) / 5;
  assert.ok(clusterReadsPerSecond > 1_000_000, `reads/s at the plateau: ${Math.round(clusterReadsPerSecond)}`);
});

test('scenario steady: statistics flow from every data node; idle: the counters are zero', async (t) => {
  const steady = await watch(t, 'steady');
  await waitUntil('reports from all 4 nodes', () => (new Set(steady.events.filter((e) => e.name === 'TransReportCounters').map((e) => e.sourceNodeId)).size === 4 ? true : undefined));
  assert.ok(steady.events.filter((e) => e.name === 'TransReportCounters').every((e) => (e.fields.read_count ?? 0) > 0));
  const idle = await watch(t, 'idle');
  await waitUntil('idle reports', () => (idle.events.filter((e) => e.name === 'TransReportCounters').length >= 4 ? true : undefined));
  assert.ok(idle.events.filter((e) => e.name === 'TransReportCounters').every((e) => e.fields.read_count === 0 && e.fields.trans_count === 0));
});
