import assert from 'node:assert/strict';
import { test } from 'node:test';
import { collect, indexOf, listen, type Rec } from './event-stream.js';
import { eventually, statusMap, withSim, type RawConnection } from './raw-socket.js';

const ALL_EVENTS = 'STARTUP=15 NODERESTART=15 CONNECTION=15 INFO=15 BACKUP=15';
const E = {
  Connected: 0,
  Disconnected: 1,
  NDBStartStarted: 10,
  NDBStartCompleted: 11,
  StartPhaseCompleted: 13,
  CM_REGCONF: 14,
  NDBStopStarted: 17,
  NDBStopCompleted: 53,
  NDBStopForced: 59,
  NR_CopyDict: 22,
  NR_CopyFragsStarted: 24,
  NR_CopyFragsCompleted: 26,
  NodeFailCompleted: 27,
  NODE_FAILREP: 28,
  ArbitResult: 30,
  GCP_TakeoverStarted: 31,
  LCP_TakeoverCompleted: 34,
  SingleUser: 52,
  BackupStarted: 54,
  BackupCompleted: 56,
  BackupAborted: 57,
  BackupStatus: 62,
  TransReportCounters: 35,
} as const;

const CRASH_TEXT = 'Node shutdown would cause system crash: Permanent error: Application error';

/** Polls `get status` for one node and records each change of its status. */
function watchStatus(conn: RawConnection, nodeId: number): { seen: string[]; stop: () => Promise<void> } {
  const seen: string[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const status = statusMap(await conn.request('get status\ntypes: NDB\n\n')).get(`node.${nodeId}.status`) ?? '?';
      if (seen[seen.length - 1] !== status) seen.push(status);
    }
  })();
  return {
    seen,
    stop: async () => {
      running = false;
      await loop;
    },
  };
}

async function nodeField(conn: RawConnection, id: number, field: string): Promise<string | undefined> {
  return statusMap(await conn.request('get status\n\n')).get(`node.${id}.${field}`);
}

function assertOrdered(records: readonly Rec[], steps: ReadonlyArray<[type: number, source?: number, field?: [string, string]]>): void {
  let from = 0;
  for (const [type, source, field] of steps) {
    const i = indexOf(records.slice(from), type, source, field);
    assert.ok(i >= 0, `event type ${type} from ${source ?? 'any'} ${field?.join('=') ?? ''} after position ${from}`);
    from += i + 1;
  }
}

test('graceful restart of node 3: status sequence, events, synchronous reply', async () => {
  await withSim({ speed: 10 }, async (_sim, open) => {
    const events = await open();
    await listen(events, ALL_EVENTS);
    const poller = await open();
    const cmd = await open();
    const before = { cc: await nodeField(cmd, 3, 'connect_count'), dyn: await nodeField(cmd, 3, 'dynamic_id') };
    const watch = watchStatus(poller, 3);
    assert.equal(await cmd.request('restart node v2\nnode: 3\ninitialstart: 0\nnostart: 0\nabort: 0\nforce: 0\n\n'), 'restart reply\nresult: Ok\nrestarted: 1\ndisconnect: 0\n\n');
    // The reply comes once the node was down and the start order went out.
    assert.equal(await nodeField(cmd, 3, 'status'), 'STARTING');
    const records = await collect(events, (r) => indexOf(r, E.NDBStartCompleted, 3) >= 0);
    await eventually(() => watch.seen[watch.seen.length - 1], (s) => s === 'STARTED');
    await watch.stop();
    assert.match(watch.seen.join(' '), /^STARTED SHUTTING_DOWN (NO_CONTACT )?(NOT_STARTED )?STARTING STARTED$/);
    assertOrdered(records, [
      [E.NDBStopStarted, 3],
      [E.NDBStopCompleted, 3, ['action', '3']],
      [E.Disconnected, 1, ['node', '3']],
      [E.NODE_FAILREP, 2, ['failed_node', '3']],
      [E.ArbitResult, 2],
      [E.NodeFailCompleted, 2, ['completing_node', '0']],
      [E.Connected, 1, ['node', '3']],
      [E.NDBStartStarted, 3],
      [E.CM_REGCONF, 3, ['president_id', '2']],
      [E.NR_CopyDict, 3],
      [E.NR_CopyFragsStarted, 3, ['dest_node', '3']],
      [E.NR_CopyFragsCompleted, 3],
      [E.NDBStartCompleted, 3],
    ]);
    const phases = records.filter((r) => r.type === E.StartPhaseCompleted && r.source === 3);
    assert.deepEqual(phases.map((r) => r.fields['phase']), ['1', '2', '3', '4', '5', '6', '7', '8', '101']);
    assert.ok(phases.every((r) => r.fields['starttype'] === '2'));
    assert.equal(records.find((r) => r.type === E.NodeFailCompleted && r.fields['completing_node'] === '0')?.fields['block'], '0');
    assert.equal(await nodeField(cmd, 3, 'connect_count'), String(Number(before.cc) + 1));
    assert.notEqual(await nodeField(cmd, 3, 'dynamic_id'), before.dyn);
    assert.equal(await nodeField(cmd, 3, 'node_group'), '0');
  });
});

test('restart with nostart waits in NOT_STARTED for start; 5063 while a node is starting; initial start type 3', async () => {
  await withSim({ speed: 5 }, async (_sim, open) => {
    const events = await open();
    await listen(events, ALL_EVENTS);
    const cmd = await open();
    assert.equal(await cmd.request('restart node v2\nnode: 3\nnostart: 1\ninitialstart: 1\n\n'), 'restart reply\nresult: Ok\nrestarted: 1\ndisconnect: 0\n\n');
    assert.equal(await nodeField(cmd, 3, 'status'), 'NOT_STARTED');
    assert.equal(await nodeField(cmd, 3, 'startphase'), '0');
    assert.equal(await nodeField(cmd, 3, 'dynamic_id'), '0');
    assert.equal(await cmd.request('start\nnode: 3\n\n'), 'start reply\nresult: Ok\n\n');
    await eventually(() => nodeField(cmd, 3, 'status'), (s) => s === 'STARTING');
    assert.equal(
      await cmd.request('restart node v2\nnode: 2\n\n'),
      'restart reply\nresult: 5063-Operation not allowed while nodes are starting or stopping.: Permanent error: Application error\nrestarted: 0\ndisconnect: 0\n\n',
    );
    const phases = new Set<string>();
    await eventually(
      async () => {
        const m = statusMap(await cmd.request('get status\n\n'));
        if (m.get('node.3.status') === 'STARTING') phases.add(m.get('node.3.startphase') ?? '');
        return m.get('node.3.status');
      },
      (s) => s === 'STARTED',
    );
    assert.ok([...phases].every((p) => ['0', '1', '2', '3', '4', '5', '6', '7', '8', '101'].includes(p)), [...phases].join());
    const records = await collect(events, (r) => indexOf(r, E.NDBStartCompleted, 3) >= 0);
    assert.equal(records.find((r) => r.type === E.NDBStopCompleted)?.fields['action'], '7');
    assert.ok(records.filter((r) => r.type === E.StartPhaseCompleted).every((r) => r.fields['starttype'] === '3'));
  });
});

test('graceful stop, 5028 refusals, stop all, then a system restart', async () => {
  await withSim({ speed: 20 }, async (sim, open) => {
    const cmd = await open();
    assert.equal(await cmd.request('stop v2\nnode: 3\nabort: 0\nforce: 0\n\n'), 'stop reply\nresult: Ok\nstopped: 1\ndisconnect: 0\n\n');
    const down = statusMap(await cmd.request('get status\n\n'));
    assert.equal(down.get('node.3.status'), 'NO_CONTACT');
    assert.equal(down.get('node.3.address'), '');
    assert.equal(down.get('node.3.node_group'), '0');
    assert.equal(down.get('node.3.version'), '0');
    assert.equal(await cmd.request('stop v2\nnode: 2\nabort: 0\n\n'), `stop reply\nresult: ${CRASH_TEXT}\nstopped: 0\ndisconnect: 0\n\n`);
    assert.equal(await cmd.request('stop\nnode: 2\nabort: 0\n\n'), `stop reply\nresult: ${CRASH_TEXT}\nstopped: 0\n\n`);
    assert.equal(await cmd.request('restart node v2\nnode: 2\n\n'), `restart reply\nresult: 5028-${CRASH_TEXT}\nrestarted: 0\ndisconnect: 0\n\n`);
    assert.equal(await cmd.request('restart node\nnode: 2\n\n'), `restart reply\nresult: 5028-${CRASH_TEXT}\nrestarted: 0\n\n`);
    assert.equal(await cmd.request('stop all\nabort: 0\nstop: db\n\n'), 'stop reply\nresult: Ok\nstopped: 1\ndisconnect: 0\n\n');
    const all = statusMap(await cmd.request('get status\n\n'));
    assert.equal(all.get('node.2.status'), 'NO_CONTACT');
    // No data node alive: API slots are UNKNOWN with an empty address.
    assert.equal(all.get('node.4.status'), 'UNKNOWN');
    assert.equal(all.get('node.4.address'), '');
    assert.equal(all.get('node.7.status'), 'UNKNOWN');
    const events = await open();
    await listen(events, ALL_EVENTS);
    void sim.model.startCluster();
    const records = await collect(events, (r) => indexOf(r, E.NDBStartCompleted, 2) >= 0 && indexOf(r, E.NDBStartCompleted, 3) >= 0);
    assert.ok(records.filter((r) => r.type === E.StartPhaseCompleted).every((r) => r.fields['starttype'] === '1'));
    const up = statusMap(await cmd.request('get status\n\n'));
    assert.equal(up.get('node.2.dynamic_id'), '-1');
    assert.equal(up.get('node.3.dynamic_id'), '2');
    assert.equal(up.get('node.4.status'), 'CONNECTED');
  });
});

test('failure of the master: straight to NO_CONTACT, survivor takes over, statistics stop; the angel restarts a node', async () => {
  await withSim({ speed: 20, scenario: 'steady' }, async (sim, open) => {
    const events = await open();
    await listen(events, `${ALL_EVENTS} STATISTICS=8`);
    const cmd = await open();
    const watch = watchStatus(await open(), 2);
    await eventually(() => watch.seen.length, (n) => n >= 1);
    sim.model.failNode(2);
    const records = await collect(events, (r) => indexOf(r, E.LCP_TakeoverCompleted) >= 0);
    await watch.stop();
    assert.deepEqual(watch.seen, ['STARTED', 'NO_CONTACT']);
    assertOrdered(records, [
      [E.NDBStopForced, 2],
      [E.Disconnected, 1, ['node', '2']],
      [E.NODE_FAILREP, 3, ['failed_node', '2']],
      [E.ArbitResult, 3, ['code', '46']],
      [E.NodeFailCompleted, 3, ['completing_node', '0']],
      [E.GCP_TakeoverStarted, 3],
      [E.LCP_TakeoverCompleted, 3],
    ]);
    assert.equal(records.find((r) => r.type === E.ArbitResult)?.fields['arbit_node'], '1');
    assert.equal(await nodeField(cmd, 3, 'dynamic_id'), '-2');
    // No more statistics from the dead node.
    const later = await collect(events, (r) => r.filter((x) => x.type === E.TransReportCounters).length >= 8);
    assert.ok(later.filter((r) => r.type === E.TransReportCounters).every((r) => r.source === 3));

    sim.model.startNode(2);
    assert.equal(await cmd.request('start\nnode: 2\n\n'), 'start reply\nresult: No contact with the process (dead ?).: Permanent error: Application error\n\n');
    const cc = Number(await nodeField(cmd, 3, 'connect_count'));
    sim.model.failNode(3, { autoRestart: true, downMs: 2000, reportForced: false });
    await eventually(() => nodeField(cmd, 3, 'status'), (s) => s === 'NO_CONTACT');
    await eventually(() => nodeField(cmd, 3, 'status'), (s) => s === 'STARTED');
    assert.equal(await nodeField(cmd, 3, 'connect_count'), String(cc + 1));
  });
});

test('losing a whole node group takes the cluster down', async () => {
  await withSim({ speed: 20, dataNodes: 4, replicas: 2 }, async (sim, open) => {
    const events = await open();
    await listen(events, ALL_EVENTS);
    const cmd = await open();
    sim.model.failNode(4);
    let records = await collect(events, (r) => indexOf(r, E.ArbitResult) >= 0);
    assert.equal(records[indexOf(records, E.ArbitResult)]?.fields['code'], '43');
    sim.model.failNode(5);
    records = await collect(events, (r) => indexOf(r, E.ArbitResult) >= 0);
    assert.equal(records[indexOf(records, E.ArbitResult)]?.fields['code'], '44');
    const m = statusMap(await cmd.request('get status\n\n'));
    assert.deepEqual([2, 3, 4, 5].map((id) => m.get(`node.${id}.status`)), ['NO_CONTACT', 'NO_CONTACT', 'NO_CONTACT', 'NO_CONTACT']);
  });
});

test('single user mode: 5062 for a non-API node, SINGLE USER MODE, is_single_user, SingleUser 0/1/2', async () => {
  await withSim({ speed: 20 }, async (_sim, open) => {
    const events = await open();
    await listen(events, ALL_EVENTS);
    const cmd = await open();
    await cmd.request('set clientversion\nmajor: 8\nminor: 4\nbuild: 3\n\n');
    assert.equal(await cmd.request('enter single user\nnodeId: 3\n\n'), 'enter single user reply\nresult: The specified node is not an API node.: Permanent error: Application error\n\n');
    assert.equal(await cmd.request('enter single user\nnodeId: 5\n\n'), 'enter single user reply\nresult: Ok\n\n');
    const m = statusMap(await cmd.request('get status\n\n'));
    assert.equal(m.get('node.2.status'), 'SINGLE USER MODE');
    assert.equal(m.get('node.3.status'), 'SINGLE USER MODE');
    assert.equal(m.get('node.5.is_single_user'), '1');
    assert.equal(m.get('node.4.is_single_user'), '0');
    assert.match(await cmd.request('restart node v2\nnode: 3\n\n'), /^restart reply\nresult: 299-Operation not allowed or aborted due to single user mode/);
    assert.equal(await cmd.request('exit single user\n\n'), 'exit single user reply\nresult: Ok\n\n');
    assert.equal(await nodeField(cmd, 2, 'status'), 'STARTED');
    const records = await collect(events, (r) => r.filter((x) => x.type === E.SingleUser).length >= 3);
    assert.deepEqual(
      records.filter((r) => r.type === E.SingleUser).map((r) => [r.fields['type'], r.fields['node_id']]),
      [['0', '5'], ['1', '5'], ['2', '5']],
    );
  });
});

test('backup: completed 0/1/2, per-node progress reports when asked, 64-bit sums, abort', async () => {
  // A backup takes some 14 s of sim time here: at speed 5 one is still running when `dump events` asks at once.
  await withSim({ speed: 5 }, async (sim, open) => {
    const events = await open();
    await listen(events, 'BACKUP=15');
    const cmd = await open();
    assert.equal(await cmd.request('start backup\ncompleted: 2\n\n'), 'start backup reply\nresult: Ok\nid: 1\n\n');
    const done = await collect(events, (r) => indexOf(r, E.BackupCompleted) >= 0);
    assertOrdered(done, [[E.BackupStarted, 2, ['backup_id', '1']], [E.BackupCompleted, 2]]);
    // BackupReportFrequency is 0 by default: no data node reports its progress unasked.
    assert.equal(indexOf(done, E.BackupStatus), -1);
    const completed = done[indexOf(done, E.BackupCompleted)]?.fields ?? {};
    const bytes = Number(completed['n_bytes_hi']) * 2 ** 32 + (Number(completed['n_bytes']) >>> 0);
    // The rows of the primary fragments: a share of the DataMemory in use, divided among the replicas.
    const used = [...sim.model.data.keys()].reduce((sum, id) => sum + sim.model.memory.pools(id).filter((p) => p.block === 249).reduce((s, p) => s + p.usedPages * p.pageBytes, 0), 0);
    assert.ok(bytes > (used / sim.model.replicas) * 0.7 && bytes < used / sim.model.replicas, `${bytes} of ${used}`);
    assert.equal(completed['starting_node'], '2');

    assert.equal(await cmd.request('start backup\ncompleted: 1\nbackupid: 40\n\n'), 'start backup reply\nresult: Ok\nid: 40\n\n');
    const dataNodes = [...sim.model.data.keys()];
    assert.equal(await cmd.request('dump events\ntype: 62\n\n'), `dump events reply\nresult: Ok\nevents: ${dataNodes.length}\n\n`);
    for (const id of dataNodes) assert.match(await cmd.readReply(), new RegExp(`^log event reply\ntype=62\ntime=0\nsource_nodeid=${id}\nstarting_node=2\nbackup_id=40\n`));
    assert.equal(await cmd.request('start backup\ncompleted: 0\n\n'), 'start backup reply\nresult: Ok\n\n');
    const waiter = await open();
    waiter.send('start backup\n\n');
    await collect(events, (r) => indexOf(r, E.BackupStarted, 2, ['backup_id', '42']) >= 0);
    assert.equal(await cmd.request('abort backup\nid: 42\n\n'), 'abort backup reply\nresult: Ok\n\n');
    assert.equal(await waiter.readReply(), 'start backup reply\nresult: Backup aborted by user request: Permanent error: User defined error\n\n');
    await collect(events, (r) => indexOf(r, E.BackupAborted, 2, ['backup_id', '42']) >= 0);
  });
});
