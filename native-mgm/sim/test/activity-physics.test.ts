import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BENCHMARK_RATES, steadyProfile, type Simulator } from '../index.js';
import { WIRE } from '../activity/node-load.js';
import { advanceBacklog } from '../activity/send-buffer.js';
import { constantProfile, NO_LOAD } from '../scenarios/benchmark-driver.js';
import { DATA_BLOCK, DATA_ROW_OVERHEAD_BYTES } from '../workload/memory.js';
import { eventually, withSim } from './raw-socket.js';

const MiB = 1024 * 1024;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function dataBytes(sim: Simulator, id: number): { used: number; total: number } {
  const pool = sim.model.memory.pools(id).find((p) => p.block === DATA_BLOCK);
  assert.ok(pool);
  return { used: pool.usedPages * pool.pageBytes, total: pool.totalPages * pool.pageBytes };
}

/**
 * DataMemory moves only with the rows writes insert or delete: never more per second than a node's replica writes ×
 * the bytes a row takes; idle it stays put; a dropped table gives its pages back. It followed the load with an 8 s
 * time constant before, whatever the write rate: 60 % of 2 GiB in under 30 s at any cluster size.
 */
test('DataMemory grows no faster than inserted rows × row size, stays put without writes, and falls when the table is dropped', async () => {
  await withSim({ speed: 50, dataNodes: 4, replicas: 2, seed: 7 }, async (sim) => {
    const id = [...sim.model.data.keys()][0]!;
    const { total } = dataBytes(sim, id);
    const idleFill = dataBytes(sim, id).used;
    sim.model.setLoad(steadyProfile(BENCHMARK_RATES));
    // Each of 4 nodes executes 300,000 × 2 / 4 replica writes a second, each a 100-byte row and its overhead.
    const perSecond = ((BENCHMARK_RATES.writesPerSec * 2) / 4) * (sim.model.activity.rowBytes + DATA_ROW_OVERHEAD_BYTES);
    // Each check puts in the rows of the sim time since the one before, however late its timer fired (seconds of sim
    // time on a loaded machine at speed 50). So growth is judged from the first check seen to add rows: everything
    // after it is for sim time after it, which came after the reading before it.
    let before = { at: sim.model.clock.now(), used: idleFill };
    let first: { at: number; used: number } | null = null;
    while (dataBytes(sim, id).used < total * 0.8) {
      await sleep(100);
      const now = { at: sim.model.clock.now(), used: dataBytes(sim, id).used };
      assert.ok(now.at < 300_000, 'the benchmark load fills 80 % within 5 minutes of sim time');
      if (first === null) {
        if (now.used > before.used) first = now;
        else before = now;
        continue;
      }
      const allowed = perSecond * ((now.at - before.at) / 1000) + 32768;
      assert.ok(now.used - first.used <= allowed, `${now.used - first.used} bytes in ${now.at - before.at} ms of sim time, the writes allow ${allowed}`);
    }
    assert.ok(first, 'the writes put rows in');
    // No writes: no rows inserted or deleted, whatever the load was.
    sim.model.setLoad('idle');
    const held = dataBytes(sim, id).used;
    const from = sim.model.clock.now();
    await eventually(() => sim.model.clock.now(), (t) => t > from + 20_000, 10_000);
    assert.equal(dataBytes(sim, id).used, held, 'idle pages stay as they are');
    // The table dropped: its pages go back at DBTUP's pace, to the idle fill.
    sim.model.memory.dropTable();
    await eventually(() => dataBytes(sim, id).used, (used) => used <= idleFill + 32768, 10_000);
  });
});

test('a send buffer fills at what is offered beyond the network, up to its configured SendBufferMemory, and drains at the network\'s spare speed', async () => {
  await withSim({ speed: 20, dataNodes: 2, replicas: 2, scenario: 'idle' }, async (sim) => {
    const [a, b] = [...sim.model.data.keys()] as [number, number];
    const config = sim.model.config;
    assert.ok(config);
    const link = config.connections.find((c) => (c.nodeId1 === a && c.nodeId2 === b) || (c.nodeId1 === b && c.nodeId2 === a));
    assert.ok(link);
    link.params['SendBufferMemory'] = 1 * MiB;
    const bandwidth = 1_000_000;
    sim.model.activity.linkBytesPerSec = bandwidth;
    // Writes that offer `use` of the network on the replication link (each write forwarded to the other replica).
    const load = (use: number) => {
      const writes = (use * bandwidth * 2) / (WIRE.replicationBytes + sim.model.activity.rowBytes);
      return constantProfile('link', { ...NO_LOAD, writesPerSec: writes, transPerSec: writes });
    };
    const node = sim.model.data.get(a)!;
    const sample = () => {
      const at = sim.model.clock.now();
      sim.model.activity.advanceTo(at);
      const l = sim.model.activity.linksAt(node, at).find((x) => x.remoteId === b)!;
      // The link carries no more than the network does; what is offered beyond it waits in the buffer.
      assert.ok(l.outPerSec <= bandwidth, `sent ${l.outPerSec} bytes/s on a ${bandwidth} bytes/s network`);
      return { at, used: l.sendBuffer.used, out: l.offeredPerSec, overloaded: l.sendBuffer.overloaded };
    };
    sim.model.setLoad(load(1.5));
    let last = sample();
    let peak = last.used;
    while (sim.model.clock.now() < 30_000) {
      await sleep(50);
      const now = sample();
      const allowed = ((now.out - bandwidth) * (now.at - last.at)) / 1000 + 4096;
      assert.ok(now.used - last.used <= allowed, `filled ${now.used - last.used} bytes in ${now.at - last.at} ms; offered beyond the network allows ${allowed}`);
      peak = Math.max(peak, now.used);
      last = now;
    }
    assert.equal(peak, 1 * MiB, 'full at the configured SendBufferMemory, not the 2 MiB default');
    assert.ok(last.overloaded);
    sim.model.setLoad(load(0.5));
    const calmFrom = sim.model.clock.now();
    while (last.used > 0.1 * MiB) {
      await sleep(50);
      const now = sample();
      if (now.at - calmFrom > 1000) {
        const allowed = ((bandwidth - now.out) * (now.at - last.at)) / 1000 + 4096;
        assert.ok(last.used - now.used <= allowed, `drained ${last.used - now.used} bytes in ${now.at - last.at} ms; the network's spare speed allows ${allowed}`);
      }
      assert.ok(now.at - calmFrom < 60_000, 'drained within a minute');
      last = now;
    }
  });
});

test('a node\'s send buffers share its TotalSendBufferMemory: a link fills only as far as the pool has room', () => {
  const limits = { linkBytes: 2 * MiB, nodeBytes: 3 * MiB };
  // 1 s at 1 MB/s beyond a 1 MB/s network: 1 MB, within both limits.
  assert.equal(advanceBacklog(0, 2_000_000, 1_000_000, 1000, limits, 3 * MiB), 1_000_000);
  // The link's own SendBufferMemory caps it.
  assert.equal(advanceBacklog(1_900_000, 2_000_000, 1_000_000, 1000, limits, 3 * MiB), 2 * MiB);
  // The pool, with the node's other links holding all but 100 kB of it, caps it sooner.
  assert.equal(advanceBacklog(500_000, 2_000_000, 1_000_000, 1000, limits, 100_000), 600_000);
  // Draining: the network takes what is not offered, no faster.
  assert.equal(advanceBacklog(1_000_000, 400_000, 1_000_000, 1000, limits, 3 * MiB), 400_000);
  // An unlimited network never backs up.
  assert.equal(advanceBacklog(0, 9e9, Infinity, 1000, limits, 3 * MiB), 0);
});
