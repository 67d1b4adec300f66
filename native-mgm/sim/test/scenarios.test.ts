import assert from 'node:assert/strict';
import { test } from 'node:test';
import { connect } from 'node:net';
import { SCENARIOS, SCENARIO_NAMES, startSimulator } from '../index.js';
import { REPORT_PERIOD_MS } from '../workload/statistics.js';
import { collect, indexOf, listen } from './event-stream.js';
import { eventually, statusMap, withSim } from './raw-socket.js';

const SPEED = 100;

test('every scenario is listed with a description', () => {
  assert.deepEqual(SCENARIOS.map((s) => s.name), [...SCENARIO_NAMES]);
  assert.ok(SCENARIOS.every((s) => s.description.length > 10));
});

test('steady: non-zero counters', async () => {
  await withSim({ scenario: 'steady', speed: SPEED }, async (sim, open) => {
    // Listen once every instance's first report (each within one period of the start) is out: a starved process
    // fires overdue timers late, and a first report covering only the moment before the load began rightly says 0.
    const loadSince = sim.model.clock.now();
    await eventually(() => sim.model.clock.now(), (now) => now > loadSince + 2 * REPORT_PERIOD_MS);
    const l = await open();
    await listen(l, 'STATISTICS=8');
    const rs = await collect(l, (r) => r.filter((x) => x.type === 35).length >= 4);
    assert.ok(rs.filter((x) => x.type === 35).every((x) => Number(x.fields['read_count']) > 0));
  });
});

test('rolling-restart: each data node in turn, never two of one node group down at once', async () => {
  // The scenario stops node 2 after its first 3 s pause: at speed 100 that was 30 ms, less than opening the listener
  // takes on a loaded machine, which then missed node 2's stop. At speed 5 the listener has 600 ms.
  await withSim({ scenario: 'rolling-restart', speed: 5, dataNodes: 4, replicas: 2 }, async (_sim, open) => {
    const l = await open();
    await listen(l, 'STARTUP=15');
    const poll = await open();
    const groupsDown: number[] = [];
    let polling = true;
    const poller = (async () => {
      while (polling) {
        const m = statusMap(await poll.request('get status\ntypes: NDB\n\n'));
        for (const [a, b] of [[2, 3], [4, 5]] as const) {
          if (m.get(`node.${a}.status`) !== 'STARTED' && m.get(`node.${b}.status`) !== 'STARTED') groupsDown.push(a);
        }
      }
    })();
    const rs = await collect(l, (r) => [2, 3, 4, 5].every((id) => indexOf(r, 11, id) >= 0), 30_000);
    polling = false;
    await poller;
    assert.deepEqual(groupsDown, []);
    const stops = rs.filter((r) => r.type === 17).map((r) => r.source);
    assert.deepEqual(stops.slice(0, 4), [2, 3, 4, 5]);
  });
});

test('node-failure: a node crashes, stays NO_CONTACT, the angel restarts it', async () => {
  await withSim({ scenario: 'node-failure', speed: SPEED }, async (_sim, open) => {
    const l = await open();
    await listen(l, 'STARTUP=15 CONNECTION=8');
    const rs = await collect(l, (r) => indexOf(r, 59) >= 0 && indexOf(r, 11, r[indexOf(r, 59)]?.source) > indexOf(r, 59), 30_000);
    const failed = rs[indexOf(rs, 59)]?.source;
    assert.ok(indexOf(rs, 1, 1, ['node', String(failed)]) > indexOf(rs, 59));
    assert.ok(indexOf(rs, 0, 1, ['node', String(failed)]) > indexOf(rs, 1, 1, ['node', String(failed)]));
  });
});

test('mgmd-failover: mgmd 1 goes away and comes back; it needs two management servers', async () => {
  await assert.rejects(startSimulator({ scenario: 'mgmd-failover' }), /mgmNodes: 2/);
  await withSim({ scenario: 'mgmd-failover', mgmNodes: 2, speed: SPEED }, async (sim, open) => {
    const first = await open(sim.mgmds[0]?.port);
    await first.waitClosed(30_000);
    const refused = (): Promise<boolean> =>
      new Promise((resolve) => {
        const s = connect({ port: sim.mgmds[0]?.port ?? 0, host: '127.0.0.1' }, () => {
          s.destroy();
          resolve(false);
        });
        s.on('error', () => resolve(true));
      });
    await eventually(refused, (r) => !r, 30_000);
    assert.equal(sim.mgmds[0]?.running, true);
  });
});

test('benchmark: the load rises to 1M+ reads/s across the cluster', async () => {
  await withSim({ scenario: 'benchmark', speed: SPEED, tcInstances: 2 }, async (_sim, open) => {
    const l = await open();
    await listen(l, 'STATISTICS=8');
    // 2 nodes × 2 TC instances: a full-rate report carries a quarter of 5 s of cluster reads.
    await collect(l, (r) => r.some((x) => x.type === 35 && (Number(x.fields['read_count']) * 4) / 5 >= 1_000_000), 30_000);
  });
});

test('idle: zeros', async () => {
  await withSim({ scenario: 'idle', speed: SPEED }, async (_sim, open) => {
    const l = await open();
    await listen(l, 'STATISTICS=8');
    const rs = await collect(l, (r) => r.length >= 4);
    assert.ok(rs.every((x) => x.type !== 35 || x.fields['read_count'] === '0'));
  });
});

test('mgmd-failover at 255 nodes: the management servers come after the 144 data nodes, and the first still fails over', async () => {
  await withSim({ scenario: 'mgmd-failover', dataNodes: 144, mgmNodes: 2, apiNodes: 109, speed: SPEED }, async (sim) => {
    assert.ok((sim.mgmds[0]?.nodeId ?? 0) > 144);
    await eventually(async () => sim.mgmds[0]?.running, (running) => running === false, 30_000);
  });
});
