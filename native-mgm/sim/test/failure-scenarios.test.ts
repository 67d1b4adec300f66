import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eventTypeByName, MONITOR_FILTER } from '../../events/catalogue.js';
import { waitUntil } from '../../test/wait.js';
import type { ClusterEvent } from '../../types.js';
import { findEvent, watchFailures, type FailureWatch } from './failure-watch.js';

const HEARTBEAT_INTERVAL_MS = 5000; // HeartbeatIntervalDbDb's default, which the simulator's configuration keeps
const TIMEOUT_MS = 60_000;

/** The node went down and came back, as `get status` showed it: STARTED, then not, then STARTED again. */
function wentDownAndBack(w: FailureWatch, id: number): boolean {
  const seen = w.statuses.get(id) ?? [];
  const down = seen.findIndex((s) => s === 'NO_CONTACT');
  return down > 0 && seen.slice(0, down).includes('STARTED') && seen.slice(down).includes('STARTED');
}

/** Waits until `victim` was forced down and came back STARTED, in the events and in `get status` both. */
function forcedDownAndBack(w: FailureWatch, victim: number, what: string): Promise<true> {
  return waitUntil(what, () => {
    const forced = findEvent(w.events, 0, 'NDBStopForced', (e) => e.sourceNodeId === victim);
    return forced >= 0 && findEvent(w.events, forced, 'NDBStartCompleted', (e) => e.sourceNodeId === victim) >= 0 && wentDownAndBack(w, victim) ? true : undefined;
  }, TIMEOUT_MS);
}

/** The sim times the model emitted events of `name` from `source` at. */
function emitted(w: FailureWatch, name: string, source: number): number[] {
  const type = eventTypeByName(name).id;
  return w.emittedAt.filter((e) => e.type === type && e.source === source).map((e) => e.at);
}

const fieldsOf = (e: ClusterEvent | undefined): Record<string, number> | undefined => e?.fields;

test('heartbeat-failure: the starved node misses heartbeats 2, 3, 4 one interval apart, is declared dead, shuts down with 2315 and comes back', async (t) => {
  const w = await watchFailures(t, { dataNodes: 4, replicas: 2, scenario: 'heartbeat-failure', speed: 50 });
  const starvedCpu: Array<{ exec: number; user: number }> = [];
  w.sim.model.onEvent((e) => {
    // The figures a SQL node serves at the moment of the first missed heartbeat: the main thread busy, its OS time stolen.
    if (e.type !== eventTypeByName('MissedHeartbeat').id || starvedCpu.length > 0) return;
    const node = w.sim.model.dataNode(e.body[0] ?? 0);
    const main = w.sim.model.activity.threads(node.id).findIndex((th) => th.kind === 'main');
    const cpu = w.sim.model.activity.cpuAt(node, w.sim.model.clock.now())[main];
    if (cpu) starvedCpu.push({ exec: cpu.thread_exec, user: cpu.OS_user });
  });
  const victim = await waitUntil('a node declared dead', () => w.events.find((e) => e.name === 'DeadDueToHeartbeat')?.fields.node, TIMEOUT_MS);
  await waitUntil(`node ${victim} started again`, () => (findEvent(w.events, 0, 'NDBStartCompleted', (e) => e.sourceNodeId === victim) >= 0 && wentDownAndBack(w, victim) ? true : undefined), TIMEOUT_MS);

  const ev = w.events;
  const missed = ev.filter((e) => e.name === 'MissedHeartbeat' && e.fields.node === victim);
  assert.deepEqual(missed.map((e) => e.fields.count), [2, 3, 4]);
  const checker = missed[0]!.sourceNodeId;
  assert.notEqual(checker, victim);
  assert.ok(missed.every((e) => e.sourceNodeId === checker), 'one neighbour checks the node');
  const dead = findEvent(ev, 0, 'DeadDueToHeartbeat', (e) => e.fields.node === victim);
  assert.equal(ev[dead]?.sourceNodeId, checker);
  assert.ok(ev.indexOf(missed[2]!) < dead);
  const forced = findEvent(ev, dead, 'NDBStopForced', (e) => e.sourceNodeId === victim);
  assert.deepEqual(fieldsOf(ev[forced]), { action: 1, signum: 0, error: 2315, sphase: 255, extra: 0 });
  const failrep = findEvent(ev, forced, 'NODE_FAILREP', (e) => e.fields.failed_node === victim);
  const handled = findEvent(ev, failrep, 'NodeFailCompleted', (e) => e.fields.failed_node === victim && e.fields.block === 0 && e.fields.completing_node === 0);
  const back = findEvent(ev, handled, 'NDBStartCompleted', (e) => e.sourceNodeId === victim);
  assert.ok(failrep > forced && handled > failrep && back > handled, 'failure reported and handled before the node is back');
  assert.ok(findEvent(ev, handled, 'StartPhaseCompleted', (e) => e.sourceNodeId === victim && e.fields.starttype === 2) < back, 'it came back through a node restart');

  // One check per HeartbeatIntervalDbDb: the reports are an interval apart, and the first comes three intervals in.
  const at = emitted(w, 'MissedHeartbeat', checker);
  for (let i = 1; i < 3; i++) assert.ok(at[i]! - at[i - 1]! >= HEARTBEAT_INTERVAL_MS * 0.95, `missed heartbeats ${at.join(', ')} ms apart`);
  const [declared] = emitted(w, 'DeadDueToHeartbeat', checker);
  assert.ok(declared! >= at[2]!);

  assert.equal(starvedCpu.length, 1);
  assert.ok(starvedCpu[0]!.exec >= 90, `main thread exec ${starvedCpu[0]!.exec} %`);
  assert.ok(starvedCpu[0]!.user <= starvedCpu[0]!.exec * 0.5, `OS user ${starvedCpu[0]!.user} % of exec ${starvedCpu[0]!.exec} %: time stolen`);
});

test('arbitration: a split between two sites; each half reports the other failed, the arbitrator says win to one (46) and lose to the other (47), which shuts down with 2305 and restarts', async (t) => {
  const w = await watchFailures(t, { dataNodes: 4, replicas: 2, scenario: 'arbitration', speed: 50 });
  const losers = await waitUntil('the arbitrator\'s answers', () => {
    const lost = w.events.find((e) => e.name === 'ArbitResult' && (e.fields.code! & 0xffff) === 47);
    return lost ? w.events.filter((e) => e.name === 'NDBStopForced').map((e) => e.sourceNodeId) : undefined;
  }, TIMEOUT_MS);
  await waitUntil('the losing side back', () => (losers.length === 2 && losers.every((id) => wentDownAndBack(w, id) && findEvent(w.events, 0, 'NDBStartCompleted', (e) => e.sourceNodeId === id) >= 0) ? true : undefined), TIMEOUT_MS);

  const ev = w.events;
  // Sites: the first member of each node group (2, 4) and the second (3, 5); the master's site (node 2's) wins.
  assert.deepEqual([...losers].sort(), [3, 5]);
  const winners = [2, 4];
  const results = ev.filter((e) => e.name === 'ArbitResult').slice(0, 4);
  const decode = (e: ClusterEvent): [number, number, number] => [e.sourceNodeId, e.fields.code! & 0xffff, e.fields.code! >>> 16];
  assert.deepEqual(results.map(decode), [[2, 45, 7], [3, 45, 7], [2, 46, 7], [3, 47, 7]]);
  assert.ok(results.every((e) => e.fields.arbit_node === 1 && e.fields.ticket_0 === results[0]!.fields.ticket_0 && e.fields.ticket_1 === results[0]!.fields.ticket_1));

  const firstResult = ev.indexOf(results[0]!);
  const dead = ev.filter((e) => e.name === 'DeadDueToHeartbeat');
  assert.equal(dead.length, 4, 'every node\'s checker is across the split');
  assert.ok(dead.every((e) => winners.includes(e.sourceNodeId) !== winners.includes(e.fields.node!) && ev.indexOf(e) < firstResult));
  for (const [side, other] of [[winners, losers], [losers, winners]] as const) {
    for (const s of side) for (const f of other) {
      const i = findEvent(ev, 0, 'NODE_FAILREP', (e) => e.sourceNodeId === s && e.fields.failed_node === f);
      assert.ok(i >= 0 && i < firstResult, `node ${s} reports node ${f} failed before arbitration`);
    }
  }
  const won = ev.indexOf(results[3]!);
  for (const id of losers) {
    const forced = findEvent(ev, won, 'NDBStopForced', (e) => e.sourceNodeId === id);
    assert.deepEqual(fieldsOf(ev[forced]), { action: 1, signum: 0, error: 2305, sphase: 255, extra: 0 });
    const handled = findEvent(ev, forced, 'NodeFailCompleted', (e) => e.sourceNodeId === 2 && e.fields.failed_node === id && e.fields.block === 0);
    assert.ok(handled > forced);
  }
  for (const id of winners) assert.deepEqual(w.statuses.get(id), ['STARTED'], `node ${id} stayed up`);
});

test('gcp-stop: a node\'s disk slows, its redo waits in the buffer, the global checkpoint stalls for TimeBetweenGlobalCheckpointsTimeout, the master stops the node (2303) and it restarts', async (t) => {
  // CHECKPOINT=10 for the global checkpoint events (a monitor stays at 7: one event per checkpoint is too many).
  const w = await watchFailures(t, { dataNodes: 4, replicas: 2, scenario: 'gcp-stop', speed: 100 }, { ...MONITOR_FILTER, CHECKPOINT: 10 });
  const model = w.sim.model;
  const victim = 3; // the first data node that is not the master (node 2)
  const samples: Array<{ at: number; buffered: number; redoPerSec: number; lcpPerSec: number }> = [];
  const sampler = setInterval(() => {
    const now = model.clock.now();
    if (model.dataNode(victim).status !== 'STARTED') return;
    model.activity.advanceTo(now);
    const speeds = model.activity.nodeTotals(victim).writeSpeeds(now);
    samples.push({ at: now, buffered: model.activity.redoLog(victim).buffered, redoPerSec: speeds.redo.lastSec, lcpPerSec: speeds.lcp.lastSec });
  }, 20);
  t.after(() => clearInterval(sampler));
  await forcedDownAndBack(w, victim, 'the node stopped for the GCP stop, and back');
  clearInterval(sampler);

  const ev = w.events;
  const forced = findEvent(ev, 0, 'NDBStopForced', (e) => e.sourceNodeId === victim);
  assert.deepEqual(fieldsOf(ev[forced]), { action: 1, signum: 0, error: 2303, sphase: 255, extra: 0 });
  const before = ev.slice(0, forced);
  const started = before.filter((e) => e.name === 'GlobalCheckpointStarted');
  const completed = before.filter((e) => e.name === 'GlobalCheckpointCompleted');
  assert.ok(completed.length >= 2, 'global checkpoints completed before the stall');
  const stalled = started.at(-1)!;
  assert.equal(completed.at(-1)!.fields.gci, stalled.fields.gci! - 1, 'the last one started never completed before the stop');
  assert.ok(started.every((e) => e.sourceNodeId === 2) && completed.every((e) => e.sourceNodeId === 2), 'the master reports them');
  const done = findEvent(ev, forced, 'GlobalCheckpointCompleted', (e) => e.fields.gci === stalled.fields.gci);
  assert.ok(done > forced, 'it completes once the node that held it is gone');
  assert.ok(findEvent(ev, done, 'GlobalCheckpointStarted', (e) => e.fields.gci === stalled.fields.gci! + 1) > done, 'and the next one starts');
  const failrep = findEvent(ev, forced, 'NODE_FAILREP', (e) => e.fields.failed_node === victim);
  assert.ok(failrep > forced && findEvent(ev, failrep, 'NodeFailCompleted', (e) => e.fields.failed_node === victim && e.fields.block === 0) > failrep);

  // The stall lasted TimeBetweenGlobalCheckpointsTimeout (120 s by default) in sim time.
  const startedAt = w.emittedAt.filter((e) => e.type === eventTypeByName('GlobalCheckpointStarted').id).map((e) => e.at);
  const [killedAt] = emitted(w, 'NDBStopForced', victim);
  const stallBegan = startedAt.filter((at) => at < killedAt!).at(-1)!;
  assert.ok(killedAt! - stallBegan >= 120_000 * 0.95, `stalled ${killedAt! - stallBegan} ms`);

  // ndbinfo before the stop: redo piling up in the buffer, redo reaching the disk at a fifth of the rate, no LCP writes.
  const healthy = samples.filter((s) => s.buffered === 0 && s.redoPerSec > 0);
  const slow = samples.filter((s) => s.buffered > 1024 * 1024);
  assert.ok(healthy.length > 0 && slow.length > 0, `${healthy.length} healthy and ${slow.length} slow samples`);
  const normal = Math.max(...healthy.map((s) => s.redoPerSec));
  assert.ok(slow.some((s) => s.redoPerSec <= normal * 0.3 && s.lcpPerSec === 0), 'redo at a fifth of its rate and no LCP writes while the disk is slow');
});

test('redo-full: one node\'s log fills at its write rate (RedoStatus free falls), the master reports the checkpoint stuck, head meets tail, the node stops with 2354 and restarts', async (t) => {
  const w = await watchFailures(t, { dataNodes: 4, replicas: 2, scenario: 'redo-full', speed: 100 });
  const victim = 3; // the first data node that is not the master (node 2)
  await forcedDownAndBack(w, victim, 'the node stopped on a full redo log, and back');

  const ev = w.events;
  const forced = findEvent(ev, 0, 'NDBStopForced', (e) => e.sourceNodeId === victim);
  assert.deepEqual(fieldsOf(ev[forced]), { action: 1, signum: 0, error: 2354, sphase: 255, extra: 0 });
  const stuck = findEvent(ev, 0, 'LCPStoppedInCalcKeepGci');
  assert.ok(stuck >= 0 && stuck < forced && ev[stuck]!.sourceNodeId === 2 && ev[stuck]!.fields.data === 0, 'the master reports the checkpoint stuck before the stop');

  const reports = ev.slice(0, forced).filter((e) => e.name === 'RedoStatus' && e.sourceNodeId === victim);
  assert.ok(reports.length >= 12 && reports.length % 4 === 0, `${reports.length} RedoStatus records: four parts a report`);
  for (const r of reports) {
    const f = r.fields;
    assert.equal(f.total_hi, 0);
    assert.equal(f.total_lo, f.no_logfiles! * f.logfilesize!, 'total MB is the files times their size');
    const head = f.head_file_no! * f.logfilesize! + f.head_mbyte!;
    const tail = f.tail_file_no! * f.logfilesize! + f.tail_mbyte!;
    assert.equal(f.free_lo, tail <= head ? f.total_lo! - (head - tail) : tail - head, 'free is the ring between head and tail');
  }
  const last = reports.slice(-4);
  const free = last.map((r) => r.fields.free_lo!);
  assert.ok(Math.min(...free) <= 1 && last.every((r) => r.fields.free_lo! < r.fields.total_lo! * 0.05), `just before the stop a part is full, the others nearly: ${free.join(', ')} MB free`);
  // The free space falls no faster than the node's redo writes (16 MiB/s over 4 parts), first report to last: a
  // report's time is when it was sent, its figures a moment later on a loaded machine, so pairs may differ by that.
  const times = w.emittedAt.filter((e) => e.type === eventTypeByName('RedoStatus').id && e.source === victim).map((e) => e.at);
  const part0 = reports.filter((r) => r.fields.log_part === 0);
  const at0 = times.filter((_, i) => i % 4 === 0);
  const drop = part0[0]!.fields.free_lo! - part0.at(-1)!.fields.free_lo!;
  const secs = (at0[part0.length - 1]! - at0[0]!) / 1000;
  assert.ok(drop > 0, 'the free space fell');
  assert.ok(drop <= 4.2 * secs + 1, `part 0 lost ${drop} MB in ${secs} s`);
  const failrep = findEvent(ev, forced, 'NODE_FAILREP', (e) => e.fields.failed_node === victim);
  assert.ok(failrep > forced && findEvent(ev, failrep, 'NodeFailCompleted', (e) => e.fields.failed_node === victim && e.fields.block === 0) > failrep);
});

test('error: a node shuts down with 2341 (failed ndbrequire), nothing before it; the survivors handle the failure and it restarts', async (t) => {
  const w = await watchFailures(t, { dataNodes: 4, replicas: 2, scenario: 'error', speed: 50 });
  const victim = 2; // each data node in turn, from the first
  await forcedDownAndBack(w, victim, 'the node stopped on an internal error, and back');
  const ev = w.events;
  const forced = findEvent(ev, 0, 'NDBStopForced', (e) => e.sourceNodeId === victim);
  assert.deepEqual(fieldsOf(ev[forced]), { action: 1, signum: 0, error: 2341, sphase: 255, extra: 0 });
  assert.ok(!ev.slice(0, forced).some((e) => ['MissedHeartbeat', 'DeadDueToHeartbeat', 'ArbitResult', 'LCPStoppedInCalcKeepGci'].includes(e.name)), 'no other cause before it');
  const gone = findEvent(ev, forced, 'Disconnected', (e) => e.fields.node === victim);
  const failrep = findEvent(ev, gone, 'NODE_FAILREP', (e) => e.fields.failed_node === victim);
  assert.ok(gone > forced && failrep > gone && findEvent(ev, failrep, 'NodeFailCompleted', (e) => e.fields.failed_node === victim && e.fields.block === 0) > failrep);
});

test('DUMP 2399 (dump state): the node reports each of its redo log parts as RedoStatus', async (t) => {
  const w = await watchFailures(t, { dataNodes: 2, scenario: 'idle', speed: 1 });
  await w.client.dumpState(3, [2399]);
  const parts = await waitUntil('four RedoStatus records', () => {
    const rs = w.events.filter((e) => e.name === 'RedoStatus');
    return rs.length >= 4 ? rs : undefined;
  });
  // The simulator's own configuration: 4 parts of 16 files of 64 MiB, nothing logged yet.
  assert.deepEqual(parts.map((e) => e.sourceNodeId), [3, 3, 3, 3]);
  assert.deepEqual(parts.map((e) => e.fields.log_part), [0, 1, 2, 3]);
  for (const p of parts) assert.deepEqual({ ...p.fields, log_part: 0 }, { log_part: 0, head_file_no: 0, head_mbyte: 0, tail_file_no: 0, tail_mbyte: 0, total_hi: 0, total_lo: 1024, free_hi: 0, free_lo: 1024, no_logfiles: 16, logfilesize: 64 });
});
