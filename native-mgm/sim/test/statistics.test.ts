import assert from 'node:assert/strict';
import { test } from 'node:test';
import { blockInstances, parseConfigIni, type BlockInstances } from '../../config/index.js';
import { benchmarkProfile, BENCHMARK_RATES, steadyProfile, type LoadRates, type Simulator } from '../index.js';
import { collect, listen, type Rec } from './event-stream.js';
import { eventually, withSim, type Connections } from './raw-socket.js';

const TRANS = 35;
const OPS = 36;
const MEMORY = 50;
const LOAD: LoadRates = { readsPerSec: 100_000, writesPerSec: 20_000, transPerSec: 10_000, scansPerSec: 100, rangeScansPerSec: 500 };
const num = (r: Rec, field: string): number => Number(r.fields[field]);
const sum = (records: readonly Rec[], field: string): number => records.reduce((s, r) => s + num(r, field), 0);

/**
 * Sets LOAD, waits one full period (so every report from then on covers 5 s of this load only: one straddling the
 * switch counts the earlier load for its earlier part), then returns each node's first instances × `periods` TC
 * and LQH reports: reports come in sim-time order, so exactly `periods` from each instance. On a busy machine the
 * sim clock may already be far along when the load is set: count from the switch, not from zero.
 */
async function loadedReports(sim: Simulator, open: Connections, instances: ReadonlyMap<number, BlockInstances>, periods: number, load = LOAD): Promise<Map<number, { trans: Rec[]; ops: Rec[] }>> {
  sim.model.setLoad(steadyProfile(load));
  const switched = sim.model.clock.now();
  await eventually(() => sim.model.clock.now(), (t) => t > switched + 5500);
  const l = await open();
  await listen(l, 'STATISTICS=8');
  const fromNode = (rs: readonly Rec[], type: number, node: number): Rec[] => rs.filter((r) => r.type === type && r.source === node);
  const records = await collect(l, (rs) => [...instances].every(([n, w]) => fromNode(rs, TRANS, n).length >= w.tc * periods && fromNode(rs, OPS, n).length >= w.lqh * periods));
  return new Map([...instances].map(([n, w]) => [n, { trans: fromNode(records, TRANS, n).slice(0, w.tc * periods), ops: fromNode(records, OPS, n).slice(0, w.lqh * periods) }]));
}

test('per-instance 5 s deltas: N reports per node per period, sums match the load profile', async () => {
  const tc = 4;
  const lqh = 3;
  await withSim({ speed: 50, tcInstances: tc, lqhInstances: lqh, seed: 7 }, async (sim, open) => {
    const periods = 3;
    const reports = await loadedReports(sim, open, new Map([2, 3].map((n) => [n, { tc, lqh }])), periods);
    for (const [node, { trans, ops }] of reports) {
      const seconds = periods * 5;
      const near = (actual: number, expected: number, what: string): void =>
        assert.ok(Math.abs(actual - expected) <= expected * 0.05, `node ${node} ${what}: ${actual} vs ${expected}`);
      near(sum(trans, 'read_count') / seconds, LOAD.readsPerSec / 2, 'reads/s');
      near(sum(trans, 'write_count') / seconds, LOAD.writesPerSec / 2, 'writes/s');
      near(sum(trans, 'trans_count') / seconds, LOAD.transPerSec / 2, 'trans/s');
      near(sum(ops, 'ops') / seconds, (LOAD.readsPerSec + LOAD.writesPerSec * 2) / 2, 'LQH ops/s');
      // Deltas, not running totals: every report is about one instance's share of one period.
      const perReport = (LOAD.readsPerSec / 2 / tc) * 5;
      assert.ok(trans.every((r) => Math.abs(num(r, 'read_count') - perReport) < perReport * 0.1), 'each report is one period');
      assert.ok(trans.every((r) => num(r, 'simple_read_count') <= num(r, 'read_count')));
      assert.ok(trans.every((r) => num(r, 'commit_count') + num(r, 'abort_count') === num(r, 'trans_count')));
      assert.ok(trans.every((r) => num(r, 'conc_op_count') < 1000), 'conc_op_count is a gauge');
    }
  });
});

test('conc_op_count is whole per instance yet averages the operations in flight where each instance has under one', async () => {
  // 6000 operations/s × 0.4 ms in flight over 2 nodes × 4 TC instances: 0.3 each (nearest-integer rounding: always 0).
  const light: LoadRates = { readsPerSec: 5000, writesPerSec: 1000, transPerSec: 1000, scansPerSec: 0, rangeScansPerSec: 0 };
  await withSim({ speed: 50, tcInstances: 4, lqhInstances: 1, seed: 7 }, async (sim, open) => {
    const reports = await loadedReports(sim, open, new Map([2, 3].map((n) => [n, { tc: 4, lqh: 1 }])), 8, light);
    const gauges = [...reports.values()].flatMap(({ trans }) => trans.map((r) => num(r, 'conc_op_count')));
    assert.ok(gauges.every((g) => Number.isInteger(g) && g >= 0));
    const mean = gauges.reduce((a, b) => a + b, 0) / gauges.length;
    assert.ok(mean > 0.15 && mean < 0.45, `mean ${mean} of ${gauges.length} reports, expected about 0.3`);
  });
});

test('sim --config: each data node reports with the TC and LQH instances its thread configuration gives it', async () => {
  // Node 2: MaxNoOfExecutionThreads=11 → 4 LDM and 3 TC threads; node 3: its own ThreadConfig, 2 LDM and 1 TC.
  const config = parseConfigIni(
    ['[ndbd default]', 'NoOfReplicas=2', 'MaxNoOfExecutionThreads=11', '[ndb_mgmd]', 'NodeId=1', '[ndbd]', 'NodeId=2', '[ndbd]', 'NodeId=3', 'ThreadConfig=main,recv,ldm={count=2},tc', '[api]', ''].join('\n'),
  );
  const want = new Map([
    [2, { tc: 3, lqh: 4 }],
    [3, { tc: 1, lqh: 2 }],
  ]);
  await withSim({ config, speed: 50, seed: 3 }, async (sim, open) => {
    const served = sim.model.config!.nodes.filter((n) => n.type === 'NDB');
    assert.deepEqual(new Map(served.map((n) => [n.nodeId, blockInstances(n.params)])), want, 'what a monitor reads from get config');
    const periods = 3;
    const reports = await loadedReports(sim, open, want, periods);
    for (const [node, w] of want) {
      // The first instances × periods reports cover exactly `periods` periods only if the node has that many instances.
      const seconds = periods * 5;
      const reads = sum(reports.get(node)!.trans, 'read_count') / seconds;
      const ops = sum(reports.get(node)!.ops, 'ops') / seconds;
      assert.ok(Math.abs(reads - LOAD.readsPerSec / 2) <= LOAD.readsPerSec * 0.025, `node ${node}: ${reads} reads/s from ${w.tc} TC instances`);
      const lqhOps = (LOAD.readsPerSec + LOAD.writesPerSec * 2) / 2;
      assert.ok(Math.abs(ops - lqhOps) <= lqhOps * 0.05, `node ${node}: ${ops} LQH ops/s from ${w.lqh} LQH instances`);
    }
  });
});

test('an idle cluster still reports every period, with zeros', async () => {
  await withSim({ speed: 50, scenario: 'idle' }, async (_sim, open) => {
    const l = await open();
    await listen(l, 'STATISTICS=8');
    const records = await collect(l, (rs) => rs.filter((r) => r.type === TRANS).length >= 8);
    assert.ok(records.filter((r) => r.type === TRANS).every((r) => Object.values(r.fields).every((v) => v === '0')));
  });
});

test('a STATISTICS level below 8 gets no counters', async () => {
  await withSim({ speed: 50, scenario: 'steady' }, async (sim, open) => {
    const l = await open();
    await listen(l, 'STATISTICS=7 STARTUP=1');
    sim.model.failNode(3, { reportForced: true });
    const records = await collect(l, (rs) => rs.length >= 1);
    assert.deepEqual(records.map((r) => r.type), [59]);
  });
});

test('benchmark load reaches 1M+ reads/s and memory follows it past the 80 % threshold', async () => {
  await withSim({ speed: 50, dataNodes: 4, replicas: 2 }, async (sim, open) => {
    const l = await open();
    await listen(l, 'STATISTICS=8');
    sim.model.setLoad(steadyProfile(BENCHMARK_RATES));
    const records = await collect(l, (rs) => rs.some((r) => r.type === MEMORY && num(r, 'block') === 249 && num(r, 'gth') === 1), 30_000);
    const mem = records.find((r) => r.type === MEMORY);
    assert.ok(mem && num(mem, 'pages_used') / num(mem, 'pages_total') >= 0.8);
    assert.equal(mem?.fields['page_size_bytes'], '32768');
    // 4 nodes × 4 TC instances; one report per instance per 5 s.
    const peak = records.filter((r) => r.type === TRANS).map((r) => (num(r, 'read_count') * 16) / 5);
    assert.ok(Math.max(...peak) >= 1_000_000, `peak ${Math.max(...peak)} reads/s`);
    // Idle, the pages stay as they are (no writes delete rows); the benchmark's table dropped, they are freed.
    sim.model.setLoad('idle');
    sim.model.memory.dropTable();
    const down = await collect(l, (rs) => rs.some((r) => r.type === MEMORY && num(r, 'gth') === -1), 30_000);
    assert.ok(down.length > 0);
  });
});

test('the benchmark profile: warmup, run at the peak, cooldown, then idle', () => {
  const p = benchmarkProfile(BENCHMARK_RATES, { warmupMs: 10_000, runMs: 20_000, cooldownMs: 10_000 });
  assert.equal(p.ratesAt(0).readsPerSec, 0);
  assert.equal(p.ratesAt(5_000).readsPerSec, BENCHMARK_RATES.readsPerSec / 2);
  assert.equal(p.ratesAt(15_000).readsPerSec, BENCHMARK_RATES.readsPerSec);
  assert.ok(BENCHMARK_RATES.readsPerSec >= 1_000_000);
  assert.equal(p.ratesAt(35_000).readsPerSec, BENCHMARK_RATES.readsPerSec / 2);
  assert.equal(p.ratesAt(45_000).readsPerSec, 0);
});

test('counts are never negative when the load changes mid-period, as the benchmark loop does', async () => {
  const phases = { warmupMs: 4_000, runMs: 3_000, cooldownMs: 3_000 };
  await withSim({ speed: 50, dataNodes: 4, replicas: 2, seed: 3 }, async (sim, open) => {
    const l = await open();
    await listen(l, 'STATISTICS=8');
    // A new run starts every 7 s of sim time: in the warmup of the previous one, so reports straddle each switch.
    const clock = sim.model.clock;
    let switches = 0;
    const loop = (): void => {
      sim.model.setLoad(benchmarkProfile(BENCHMARK_RATES, phases));
      switches += 1;
      if (switches < 8) clock.at(clock.now() + 7_000, loop);
    };
    loop();
    const records = await collect(l, (rs) => switches >= 8 && rs.filter((r) => r.type === TRANS).length >= 16 * 10, 60_000);
    const counters = records.filter((r) => r.type === TRANS || r.type === OPS);
    assert.ok(counters.length >= 160);
    for (const r of counters) {
      for (const [field, value] of Object.entries(r.fields)) assert.match(value, /^\d+$/, `${field} of a ${r.type} report from node ${r.source}: ${value}`);
    }
    // …and the run still reaches its peak, so the fix did not simply zero the load.
    assert.ok(Math.max(...counters.filter((r) => r.type === TRANS).map((r) => num(r, 'read_count'))) > 0);
  });
});

test('a report whose timer runs late, after a load change, counts only its own 5 s', async () => {
  const tc = 2;
  await withSim({ speed: 50, dataNodes: 2, replicas: 2, tcInstances: tc, seed: 5 }, async (sim, open) => {
    sim.model.setLoad(steadyProfile(LOAD));
    const l = await open();
    await listen(l, 'STATISTICS=8');
    // The process is starved for 3 periods of sim time; the load change runs before the overdue report timers.
    await collect(l, (rs) => rs.filter((r) => r.type === TRANS).length >= 8);
    const stalled = Date.now();
    while (Date.now() - stalled < (3 * 5000) / 50);
    sim.model.setLoad(steadyProfile({ readsPerSec: 0, writesPerSec: 0, transPerSec: 0, scansPerSec: 0, rangeScansPerSec: 0 }));
    const records = (await collect(l, (rs) => rs.filter((r) => r.type === TRANS).length >= 8)).filter((r) => r.type === TRANS);
    // One instance's 5 s of LOAD, from the load itself: the first reports seen cover less (each timer starts at a
    // random phase, and those straddling setLoad count idle time), so they are no measure of a whole period.
    const period = (LOAD.readsPerSec / 2 / tc) * 5;
    const most = Math.max(...records.map((r) => num(r, 'read_count')));
    assert.ok(most <= period * 1.05, `a report of ${most} reads, 5 s of the load is ${period}`);
    assert.ok(most > 0);
  });
});
