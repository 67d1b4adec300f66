import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CommandFailedError } from '../errors.js';
import { decodeTextWords, encodeTextWords } from '../events/text-words.js';
import { EventStream } from '../client/event-stream.js';
import { MgmClient } from '../client/mgm-client.js';
import { startSimulator, type Simulator, type SimulatorOptions } from '../sim/index.js';
import type { ClusterEvent, NodeState } from '../types.js';
import { waitUntil } from './wait.js';

async function cluster(t: { after(fn: () => unknown): void }, options: SimulatorOptions = {}, requestTimeoutMs?: number): Promise<{ sim: Simulator; client: MgmClient }> {
  const sim = await startSimulator({ dataNodes: 4, replicas: 2, apiNodes: 4, connectedApiNodes: 3, scenario: 'idle', speed: 50, ...options });
  const client = new MgmClient({ connectstring: sim.connectstring, backoff: { baseMs: 10, capMs: 100 }, requestTimeoutMs });
  t.after(async () => {
    client.close();
    await sim.close();
  });
  return { sim, client };
}

const byId = (nodes: NodeState[], id: number) => nodes.find((n) => n.nodeId === id);

function record(stream: EventStream): ClusterEvent[] {
  const seen: ClusterEvent[] = [];
  stream.events.on('event', (e) => seen.push(e));
  return seen;
}

test('get status against the simulator: typed nodes, master, is_single_user after set clientversion', async (t) => {
  const { client, sim } = await cluster(t);
  const nodes = await client.getStatus();
  assert.deepEqual(nodes.map((n) => n.type), ['MGM', 'NDB', 'NDB', 'NDB', 'NDB', 'API', 'API', 'API', 'API']);
  assert.equal(nodes.filter((n) => n.isMaster).length, 1);
  assert.ok(nodes.every((n) => n.isSingleUser === false), 'is_single_user is sent once clientversion >= 8.0.22');
  assert.deepEqual(nodes.filter((n) => n.type === 'NDB').map((n) => n.nodeGroup), [0, 0, 1, 1]);
  assert.equal(client.session?.mgmdNodeId, sim.mgmds[0]?.nodeId);
  const ndbOnly = await client.getStatus(['NDB']);
  assert.ok(ndbOnly.every((n) => n.type === 'NDB') && ndbOnly.length === 4);
  // The server lists a group once per time it is named (spec §5.2), so a type named twice is asked for once.
  assert.deepEqual((await client.getStatus(['NDB', 'MGM', 'NDB'])).map((n) => n.nodeId), [1, 2, 3, 4, 5]);
  await client.checkConnection();
});

test('a rolling restart driven through the protocol: each data node stops, runs its start phases and comes back', async (t) => {
  const { client, sim } = await cluster(t);
  const stream = new EventStream({ connectstring: sim.connectstring });
  t.after(() => stream.close());
  const seen = record(stream);
  await stream.start();
  const dataIds = (await client.getStatus(['NDB'])).map((n) => n.nodeId);
  for (const id of dataIds) {
    const result = await client.restart([id]);
    assert.equal(result.count, 1);
    const back = await waitUntil(`node ${id} STARTED again`, async () => {
      const n = byId(await client.getStatus(['NDB']), id);
      return n?.status === 'STARTED' ? n : undefined;
    });
    assert.ok((back.connectCount ?? 0) >= 2, 'connect_count goes up after a restart');
    await waitUntil(`NDBStartCompleted from ${id}`, () => (seen.some((e) => e.name === 'NDBStartCompleted' && e.sourceNodeId === id) ? true : undefined));
    const mine = seen.filter((e) => e.sourceNodeId === id).map((e) => e.name);
    assert.ok(mine.indexOf('NDBStopStarted') < mine.indexOf('StartPhaseCompleted'), mine.join(','));
    const phases = seen.filter((e) => e.sourceNodeId === id && e.name === 'StartPhaseCompleted');
    assert.ok(phases.length >= 4 && phases.every((e) => e.fields.starttype === 2), 'node restart phases');
  }
});

test('restart with noStart leaves the node NOT_STARTED until start; stop and a refused stop', async (t) => {
  const { client } = await cluster(t);
  await client.restart([2], { noStart: true });
  await waitUntil('node 2 NOT_STARTED', async () => (byId(await client.getStatus(), 2)?.status === 'NOT_STARTED' ? true : undefined));
  await client.start(2);
  await waitUntil('node 2 STARTED', async () => (byId(await client.getStatus(), 2)?.status === 'STARTED' ? true : undefined));

  assert.deepEqual(await client.stop([4]), { count: 1, disconnect: false });
  await waitUntil('node 4 NO_CONTACT', async () => (byId(await client.getStatus(), 4)?.status === 'NO_CONTACT' ? true : undefined));
  const down = byId(await client.getStatus(), 4);
  assert.equal(down?.nodeGroup, null, 'placeholder node group of a down node is unknown');
  await assert.rejects(client.stop([5]), (e: unknown) => e instanceof CommandFailedError && /would cause system crash/.test(e.result) && !/^\d+-/.test(e.result));
  await assert.rejects(client.restart([5]), (e: unknown) => e instanceof CommandFailedError && /^5028-/.test(e.result));
});

test('single user mode, backup, dump events, log levels and report event', async (t) => {
  const { client, sim } = await cluster(t);
  const stream = new EventStream({ connectstring: sim.connectstring });
  t.after(() => stream.close());
  const seen = record(stream);
  await stream.start();

  await client.enterSingleUser(6);
  await waitUntil('single user mode', async () => {
    const nodes = await client.getStatus();
    return nodes.filter((n) => n.type === 'NDB').every((n) => n.status === 'SINGLE USER MODE') && byId(nodes, 6)?.isSingleUser ? true : undefined;
  });
  await client.exitSingleUser();
  await waitUntil('back to STARTED', async () => ((await client.getStatus(['NDB'])).every((n) => n.status === 'STARTED') ? true : undefined));
  await assert.rejects(client.enterSingleUser(2), CommandFailedError, 'a data node is not an API node');

  const { backupId } = await client.startBackup({ wait: 2 });
  assert.ok(typeof backupId === 'number' && backupId > 0);
  await waitUntil('BackupCompleted event', () => (seen.some((e) => e.name === 'BackupCompleted' && e.fields.backup_id === backupId) ? true : undefined));

  const memory = await client.dumpEvents(50);
  assert.equal(memory.length, 8, 'two MemoryUsage records per data node');
  assert.deepEqual(new Set(memory.map((e) => e.fields.block)), new Set([248, 249]));
  assert.ok(memory.every((e) => e.name === 'MemoryUsage' && (e.fields.pages_total ?? 0) > 0));

  await client.dumpState(2, [1000]);
  assert.equal(await client.setClusterLogFilter('debug', true), true);
  assert.equal((await client.getClusterLogFilter()).debug, true);
  // Level 7 is the switch for all of them, the master switch too (spec §14.1).
  assert.equal(await client.setClusterLogFilter('all', false), false);
  assert.deepEqual(Object.values(await client.getClusterLogFilter()), [false, false, false, false, false, false, false]);
  assert.equal(await client.setClusterLogFilter('all', true), true);
  assert.deepEqual(Object.values(await client.getClusterLogFilter()), [true, true, true, true, true, true, true]);
  await client.setClusterLogLevel('STATISTICS', 9);
  assert.equal((await client.getClusterLogLevels()).statistics, 9);

  await client.reportEvent([(1 << 16) | 49, ...encodeTextWords('bench start')]);
  const info = await waitUntil('InfoEvent', () => seen.find((e) => e.name === 'InfoEvent' && e.sourceNodeId === 1));
  assert.equal(decodeTextWords(info.data ?? []), 'bench start');
});

test('node failure: NO_CONTACT without SHUTTING_DOWN, failure events, a new master when the master fails', async (t) => {
  const { client, sim } = await cluster(t);
  const stream = new EventStream({ connectstring: sim.connectstring });
  t.after(() => stream.close());
  const seen = record(stream);
  await stream.start();
  const master = (await client.getStatus()).find((n) => n.isMaster);
  assert.ok(master);
  sim.model.failNode(master.nodeId);
  const after = await waitUntil('failure seen', async () => {
    const nodes = await client.getStatus();
    return byId(nodes, master.nodeId)?.status === 'NO_CONTACT' ? nodes : undefined;
  });
  const newMaster = after.find((n) => n.isMaster);
  assert.ok(newMaster && newMaster.nodeId !== master.nodeId, 'another node took over as master');
  assert.ok((newMaster.dynamicId ?? 0) < 0);
  await waitUntil('NODE_FAILREP and final NodeFailCompleted', () =>
    seen.some((e) => e.name === 'NODE_FAILREP' && e.fields.failed_node === master.nodeId) &&
    seen.some((e) => e.name === 'NodeFailCompleted' && e.fields.block === 0 && e.fields.completing_node === 0)
      ? true
      : undefined,
  );
});

test('the client parses replies the simulator writes one byte at a time, and in random pieces for 255 nodes', async (t) => {
  // One write per byte, each waiting for the last: a full 255-node reply that way takes too long on a busy machine.
  const small = await cluster(t, { writeMode: 'bytewise' });
  assert.equal((await small.client.getStatus()).length, 9);
  assert.equal((await small.client.dumpEvents(50)).length, 8);
  small.client.close();
  // Hundreds of pieces each waiting for the last: on a loaded machine that outlasts the usual 10 s, and what is
  // tested here is the parse, not the time.
  const { client } = await cluster(t, { dataNodes: 144, replicas: 2, mgmNodes: 2, apiNodes: 109, connectedApiNodes: 50, writeMode: 'random' }, 60_000);
  const nodes = await client.getStatus();
  assert.equal(nodes.length, 255);
  assert.equal(nodes.filter((n) => n.type === 'NDB').length, 144);
});

test('the event stream sums to the load: several TC instances per node each send deltas', async (t) => {
  const { sim } = await cluster(t, { scenario: 'steady', tcInstances: 3, lqhInstances: 2, speed: 20 });
  const stream = new EventStream({ connectstring: sim.connectstring });
  t.after(() => stream.close());
  const seen = record(stream);
  await stream.start();
  await waitUntil('two full report periods', () => (seen.filter((e) => e.name === 'TransReportCounters').length >= 4 * 3 * 2 ? true : undefined));
  const trans = seen.filter((e) => e.name === 'TransReportCounters');
  const perNode = new Map<number, number>();
  for (const e of trans) perNode.set(e.sourceNodeId, (perNode.get(e.sourceNodeId) ?? 0) + 1);
  assert.equal(perNode.size, 4);
  assert.ok([...perNode.values()].every((n) => n >= 3), `each node reports per instance: ${JSON.stringify([...perNode])}`);
  assert.ok(seen.filter((e) => e.name === 'OperationReportCounters').length >= 4 * 2);
});

test('scenario mgmd-failover: the client fails over to the other management server and back to work', async (t) => {
  const { client, sim } = await cluster(t, { mgmNodes: 2, scenario: 'idle' });
  await client.connect();
  const first = client.state.port;
  await sim.stopMgmd(sim.mgmds[0]?.nodeId ?? 1);
  await waitUntil('failover', () => (client.state.status === 'connected' && client.state.port !== first ? true : undefined));
  assert.equal(client.state.failovers, 1);
  const nodes = await client.getStatus();
  assert.equal(byId(nodes, sim.mgmds[0]?.nodeId ?? 1)?.status, 'NO_CONTACT', 'the other mgmd sees the stopped one as down');
});
