import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Alert } from '../../../../contract/schemas/events.js';
import type { Incident } from '../../../../contract/schemas/incidents.js';
import { quietListener } from '../../../test/tracker-fixture.js';
import { arbitCode, textRecord, WireCluster } from './wire-events.js';

const T = 1_700_000_000_000;

/** Records as the server writes them (spec §6.3, fields in the §6.6 tables' order). */
const rec = {
  missed: (src: number, node: number, count: number) => `log event reply\ntype=44\ntime=0\nsource_nodeid=${src}\nnode=${node}\ncount=${count}\n`,
  dead: (src: number, node: number) => `log event reply\ntype=45\ntime=0\nsource_nodeid=${src}\nnode=${node}\n`,
  failrep: (src: number, node: number) => `log event reply\ntype=28\ntime=0\nsource_nodeid=${src}\nfailed_node=${node}\nfailure_state=0\n`,
  disconnected: (node: number) => `log event reply\ntype=1\ntime=0\nsource_nodeid=5\nnode=${node}\n`,
  failCompleted: (src: number, node: number) => `log event reply\ntype=27\ntime=0\nsource_nodeid=${src}\nblock=0\nfailed_node=${node}\ncompleting_node=0\n`,
  arbitResult: (src: number, code: number) => `log event reply\ntype=30\ntime=0\nsource_nodeid=${src}\ncode=${code}\narbit_node=5\nticket_0=1977\nticket_1=4242\n`,
  arbitState: (src: number, code: number) => `log event reply\ntype=29\ntime=0\nsource_nodeid=${src}\ncode=${code}\narbit_node=5\nticket_0=1977\nticket_1=4242\n`,
  forced: (src: number, error: number, action = 0) => `log event reply\ntype=59\ntime=0\nsource_nodeid=${src}\naction=${action}\nsignum=0\nerror=${error}\nsphase=0\nextra=0\n`,
  stopStarted: (src: number) => `log event reply\ntype=17\ntime=0\nsource_nodeid=${src}\nstoptype=0\n`,
  stopCompleted: (src: number, action: number) => `log event reply\ntype=53\ntime=0\nsource_nodeid=${src}\naction=${action}\nsignum=0\n`,
  redoStatus: (src: number, part: number, freeMb: number) => `log event reply\ntype=73\ntime=0\nsource_nodeid=${src}\nlog_part=${part}\nhead_file_no=15\nhead_mbyte=3\ntail_file_no=0\ntail_mbyte=1\ntotal_hi=0\ntotal_lo=256\nfree_hi=0\nfree_lo=${freeMb}\nno_logfiles=16\nlogfilesize=16\n`,
  lcpStopped: (src: number) => `log event reply\ntype=8\ntime=0\nsource_nodeid=${src}\ndata=1\n`,
  undoBlocked: (src: number) => `log event reply\ntype=38\ntime=0\nsource_nodeid=${src}\nacc_count=0\ntup_count=1\n`,
  memory: (src: number, used: number) => `log event reply\ntype=50\ntime=0\nsource_nodeid=${src}\ngth=1\npage_size_bytes=32768\npages_used=${used}\npages_total=1000\nblock=249\n`,
};

/** A cluster watched since T, every data node STARTED. */
function watched(): WireCluster {
  const c = new WireCluster();
  c.poll(T);
  return c;
}

/** The failure handling every fall of `node` brings (§8.3 "Node failure"), from `t`: the survivors and the mgmd report it. */
function failureHandled(c: WireCluster, node: number, t: number, arbit = arbitCode(9, 43)): void {
  const survivor = node === 1 ? 2 : 1;
  c.at(t, rec.failrep(survivor, node)).at(t + 10, rec.disconnected(node)).at(t + 20, rec.arbitResult(survivor, arbit)).at(t + 300, rec.failCompleted(survivor, node));
  c.set(node, 'NO_CONTACT').poll(t + 400);
}

const only = (c: WireCluster): Incident => {
  const list = c.tracker.incidents.list();
  assert.equal(list.length, 1, `one incident, got ${JSON.stringify(list.map((i) => [i.nodeIds, i.cause.kind]))}`);
  return list[0] as Incident;
};

const quotes = (i: Incident, fragment: string): boolean => i.cause.evidence.some((e) => e.text.includes(fragment));

test('heartbeat: a neighbour misses heartbeats, declares node 3 dead; the incident quotes both and times the restart against its usual one', () => {
  const c = watched();
  // An earlier restart ndbtop asked for: no incident, and the node's usual times from then on.
  c.tracker.apply({ kind: 'requested', t: T + 1000, nodeId: 3, requested: true });
  c.at(T + 1100, rec.stopStarted(3)).at(T + 1500, rec.stopCompleted(3, 3));
  failureHandled(c, 3, T + 2000);
  const firstBack = c.restart(3, T + 5000, [1, 2, 3, 4, 5, 6, 7, 8, 101]);
  assert.equal(c.tracker.incidents.list().length, 0, 'a restart ndbtop asked for is no incident');

  const t = firstBack + 60_000;
  c.at(t, rec.missed(4, 3, 2)).at(t + 1500, rec.missed(4, 3, 3)).at(t + 3000, rec.missed(4, 3, 4)).at(t + 4500, rec.dead(4, 3));
  failureHandled(c, 3, t + 4600);
  const i = only(c);
  assert.equal(i.cause.kind, 'heartbeat');
  assert.deepEqual(i.nodeIds, [3]);
  assert.equal(i.planned, false);
  assert.equal(i.startedAt, t, 'the first missed heartbeat is when it began');
  assert.ok(i.noticedAt >= t + 4500);
  assert.ok(quotes(i, 'Node 4: missed 4 heartbeats from node 3'), JSON.stringify(i.cause.evidence));
  assert.ok(quotes(i, 'Node 4: node 3 declared dead (missed heartbeats)'));
  assert.ok(i.cause.evidence.every((e) => e.source === 'event' && e.at >= t));
  assert.ok(i.before.events.some((e) => e.text.includes('arbitration result')), 'the arbitration check after the fall is in its story');
  assert.equal(i.otherCauses, undefined, 'a won check (43) is no second cause');
  assert.equal(i.restart.startedAt, null, 'not restarting yet');

  const back = c.restart(3, t + 20_000, [1, 2, 3, 4, 5, 6, 7, 8, 101]);
  const after = only(c);
  assert.equal(after.restart.backAt, back);
  assert.equal(after.restart.totalSecs, (back - (t + 20_000)) / 1000);
  assert.equal(after.restart.usualSecs, (firstBack - (T + 5000)) / 1000, 'usual: the earlier restart of node 3');
  assert.deepEqual(
    after.restart.phases.map((p) => [p.name, p.secs, p.usualSecs]),
    [1, 2, 3, 4, 5, 6, 7, 8, 101].map((p) => [`start phase ${p}`, 1, 1]),
  );
});

test('the node-down alert links its incident', () => {
  const alerts: Alert[] = [];
  const c = new WireCluster({ ...quietListener, alert: (a) => alerts.push(a) });
  c.poll(T);
  c.at(T + 1000, rec.dead(2, 1));
  failureHandled(c, 1, T + 1100);
  const down = alerts.find((a) => a.kind === 'node-down' && a.nodeId === 1);
  assert.ok(down, 'a node-down alert');
  assert.equal(down.incidentId, only(c).id);
});

test('arbitration: nodes 2 and 4 lose after a split and shut down together: one incident, which side survived', () => {
  const c = watched();
  const t = T + 10_000;
  c.at(t, rec.arbitState(1, arbitCode(6, 45))).at(t + 5, rec.arbitState(2, arbitCode(6, 45)));
  // Each half reports the other failed: the losing half's reports make the winners look down until the next poll.
  c.at(t + 100, rec.failrep(2, 1)).at(t + 101, rec.failrep(2, 3)).at(t + 102, rec.failrep(1, 2)).at(t + 103, rec.failrep(1, 4));
  c.at(t + 200, rec.arbitResult(1, arbitCode(9, 46))).at(t + 210, rec.arbitResult(2, arbitCode(9, 47)));
  c.at(t + 300, rec.forced(2, 2305)).at(t + 310, rec.forced(4, 2305));
  c.at(t + 400, rec.disconnected(2)).at(t + 410, rec.disconnected(4));
  c.set(2, 'NO_CONTACT').set(4, 'NO_CONTACT').poll(t + 500);
  const i = only(c);
  assert.equal(i.cause.kind, 'arbitration');
  assert.deepEqual(i.nodeIds, [2, 4], 'the winners, up at the next poll, never fell');
  assert.match(i.cause.text, /Nodes 2 and 4 lost arbitration .*node 1 survived/);
  assert.ok(quotes(i, 'arbitrator says lose'));
  assert.ok(quotes(i, 'possible network partitioning'));
  assert.ok(quotes(i, 'error 2305: Node lost connection to other nodes and can not form a unpartitioned cluster'));
  assert.equal(i.startedAt, t);
});

test('gcp-stop: the GCP monitor reports a stop in a text event and the node is killed', () => {
  const c = watched();
  const t = T + 10_000;
  c.at(t, textRecord(46, 1, 'GCP Monitor: GCP_COMMIT lag 62 seconds (max lag: 60s)'));
  c.at(t + 2000, textRecord(46, 1, 'Detected GCP stop(3)...sending kill to [ndbd(3)]'));
  c.at(t + 2100, rec.forced(3, 2303));
  failureHandled(c, 3, t + 2200);
  const i = only(c);
  assert.equal(i.cause.kind, 'gcp-stop');
  assert.ok(quotes(i, 'Node 1: Detected GCP stop(3)'));
  assert.deepEqual(
    i.otherCauses?.map((o) => o.kind),
    ['error'],
    'the kill\'s own exit code is listed beside it',
  );
  assert.ok(i.otherCauses?.[0]?.evidence.some((e) => e.text.includes('error 2303: System error, node killed during node restart by other node')));
});

test('redo-full: the redo log parts of node 3 fill, the local checkpoint stops in calcKeepGci', () => {
  const c = watched();
  const t = T + 10_000;
  c.at(t, rec.redoStatus(3, 0, 60)).at(t + 10_000, rec.redoStatus(3, 0, 12)).at(t + 20_000, rec.lcpStopped(1));
  failureHandled(c, 3, t + 21_000);
  const i = only(c);
  assert.equal(i.cause.kind, 'redo-full');
  assert.ok(quotes(i, 'Node 3: redo log part 0 95 % used (12 of 256 free'), JSON.stringify(i.cause.evidence));
  assert.ok(quotes(i, 'local checkpoint stopped in calcKeepGci'));
  assert.ok(!quotes(i, 'part 0 77 %'), 'a fill below the mark is no evidence');
});

test('undo-full, memory and error: what the node itself said names the cause, the manual\'s text with the code', () => {
  const undo = watched();
  undo.at(T + 5000, rec.undoBlocked(2)).at(T + 6000, rec.forced(2, 2312));
  failureHandled(undo, 2, T + 6100);
  assert.equal(only(undo).cause.kind, 'undo-full');
  assert.ok(quotes(only(undo), 'error 2312: No more free UNDO log, increase UndoIndexBuffer'));

  const memory = watched();
  memory.at(T + 5000, rec.memory(4, 990)).at(T + 6000, rec.memory(4, 1000));
  failureHandled(memory, 4, T + 7000);
  assert.equal(only(memory).cause.kind, 'memory');
  assert.ok(quotes(only(memory), 'Node 4: data memory 100% used (1000 of 1000 pages), rising past a threshold'));

  const error = watched();
  error.at(T + 5000, rec.forced(1, 2341));
  failureHandled(error, 1, T + 5100);
  const i = only(error);
  assert.equal(i.cause.kind, 'error');
  assert.match(i.cause.text, /Node 1 shut down after an error: error 2341: Internal program error \(failed ndbrequire\)/);
  // The event's sentence names the code, the manual's text follows it: the code once, not "error 2341; error 2341: …".
  assert.ok(quotes(i, 'Node 1: forced shutdown (stop) in start phase 0, error 2341: Internal program error (failed ndbrequire)'), JSON.stringify(i.cause.evidence));
  for (const e of i.cause.evidence) assert.equal(e.text.split('2341').length - 1, e.text.includes('2341') ? 1 : 0, e.text);

  // A crash reports its signal after the code: the manual's text comes after both.
  const signal = watched();
  signal.at(T + 5000, `log event reply\ntype=59\ntime=0\nsource_nodeid=2\naction=0\nsignum=6\nerror=6000\nsphase=0\nextra=0\n`);
  failureHandled(signal, 2, T + 5100);
  assert.equal(only(signal).cause.text, 'Node 2 shut down after an error: error 6000, signal 6: Error OS signal received');
});

test('operator: a graceful stop another client asked for is an operator incident; the same stop from ndbtop is none', () => {
  const c = watched();
  c.at(T + 1000, rec.stopStarted(3));
  c.set(3, 'SHUTTING_DOWN').poll(T + 1100);
  c.at(T + 2000, rec.stopCompleted(3, 0));
  failureHandled(c, 3, T + 2100);
  const i = only(c);
  assert.equal(i.cause.kind, 'operator');
  assert.ok(quotes(i, 'Node 3: node shutdown initiated'));
  assert.ok(quotes(i, 'node shutdown completed (stop)'));

  const ours = watched();
  ours.tracker.apply({ kind: 'requested', t: T + 900, nodeId: 3, requested: true });
  ours.at(T + 1000, rec.stopStarted(3)).at(T + 2000, rec.stopCompleted(3, 0));
  failureHandled(ours, 3, T + 2100);
  assert.deepEqual(ours.tracker.incidents.list(), []);
});

test('unknown: a node that just drops names no cause, and the incident says what was seen', () => {
  const c = watched();
  failureHandled(c, 3, T + 10_000);
  const i = only(c);
  assert.equal(i.cause.kind, 'unknown');
  assert.match(i.cause.text, /Node 3 left STARTED \(now NO_CONTACT\) and what ndbtop saw names no cause/);
  assert.ok(i.cause.evidence.some((e) => e.source === 'status' && e.text === 'Node 3: left STARTED (now NO_CONTACT)'));
  assert.ok(quotes(i, 'Node 1: node 3 failed'), 'the failure report is quoted as seen');
  assert.ok(quotes(i, 'Node 5: lost connection to node 3'));
  // The survivor's report is a claim the management server's Disconnected confirms 10 ms later: it began with the report.
  assert.equal(i.noticedAt, T + 10_010);
  assert.equal(i.startedAt, T + 10_000, 'nothing before the failure report: it began when first reported');
});

test('two candidate causes: declared dead and an ndbrequire exit, both listed with their evidence', () => {
  const c = watched();
  const t = T + 10_000;
  c.at(t, rec.dead(4, 3)).at(t + 100, rec.forced(3, 2341));
  failureHandled(c, 3, t + 200);
  const i = only(c);
  assert.equal(i.cause.kind, 'heartbeat');
  assert.equal(i.otherCauses?.length, 1);
  assert.equal(i.otherCauses?.[0]?.kind, 'error');
  assert.ok(i.otherCauses?.[0]?.evidence.some((e) => e.text.includes('error 2341')));
});

test('nodes falling apart in time are two incidents; together, one', () => {
  const c = watched();
  failureHandled(c, 1, T + 1000);
  failureHandled(c, 3, T + 60_000);
  assert.deepEqual(
    c.tracker.incidents.list().map((i) => i.nodeIds),
    [[3], [1]],
    'newest first',
  );
});

test('a maintenance window expecting stops, and a declared plan, raise none', () => {
  const c = watched();
  c.tracker.apply({ kind: 'maintenance', t: T + 100, op: 'start', windowId: 'w1', reason: 'kernel upgrade', silence: ['node-down'], until: null });
  failureHandled(c, 3, T + 1000);
  c.tracker.apply({ kind: 'maintenance', t: T + 30_000, op: 'stop', windowId: 'w1' });
  c.restart(3, T + 31_000);
  c.tracker.apply({ kind: 'planned', t: T + 50_000, nodeIds: [1], planned: true, by: 'rolling restart' });
  c.at(T + 50_100, rec.stopStarted(1)).at(T + 50_500, rec.stopCompleted(1, 3));
  failureHandled(c, 1, T + 51_000);
  assert.deepEqual(c.tracker.incidents.list(), []);
});

test('a node already down when ndbtop begins watching: an incident that says so, cause unknown', () => {
  const c = new WireCluster();
  c.set(2, 'NO_CONTACT').poll(T);
  const i = only(c);
  assert.equal(i.beganBeforeWatching, true);
  assert.equal(i.cause.kind, 'unknown');
  assert.match(i.cause.text, /already down \(NO_CONTACT\) when ndbtop began watching/);

  const allDown = new WireCluster();
  for (const id of [1, 2, 3, 4]) allDown.set(id, 'NO_CONTACT');
  allDown.poll(T);
  assert.deepEqual(allDown.tracker.incidents.list(), [], 'a cluster not started is no incident');
});

test('what a node reported of another node\'s fall is no sign of its own: its incident begins at its own first missed heartbeat', () => {
  const c = watched();
  const t = T + 10_000;
  c.at(t, rec.missed(3, 2, 2)).at(t + 1500, rec.missed(3, 2, 3)).at(t + 3000, rec.dead(3, 2));
  failureHandled(c, 2, t + 3100);
  const t2 = t + 20_000;
  c.at(t2, rec.missed(4, 3, 2)).at(t2 + 1500, rec.dead(4, 3));
  failureHandled(c, 3, t2 + 1600);
  const [newest] = c.tracker.incidents.list();
  assert.deepEqual(newest?.nodeIds, [3]);
  assert.equal(newest?.startedAt, t2);
  assert.ok(!newest?.before.events.some((e) => e.text.includes('from node 2') || e.text.includes('node 2 declared dead')), JSON.stringify(newest?.before.events));
});

test('an incident keeps at most 12 events of one name, of the reports the poll that saw the fall came after too', () => {
  const c = watched();
  const t = T + 10_000;
  // At 144 data nodes every survivor reports a fall, NodeFailCompleted once per block: hundreds of one fall, most
  // before the poll that sees the node gone and, when a second node follows, before it joins the incident.
  for (let k = 0; k < 300; k += 1) c.at(t + k, k % 2 === 0 ? rec.failrep(2 + (k % 3), 1) : rec.failCompleted(2 + (k % 3), 1));
  failureHandled(c, 1, t + 300);
  assert.equal(only(c).before.events.filter((e) => e.text.endsWith(': node 1 failed')).length, 12);
  failureHandled(c, 3, t + 3000);
  const i = only(c);
  assert.deepEqual(i.nodeIds, [1, 3]);
  const said = (pattern: RegExp): number => i.before.events.filter((e) => pattern.test(e.text)).length;
  // Twelve of one name in all: node 3's own report (the newest) is one of them.
  assert.equal(said(/: node [13] failed$/), 12, JSON.stringify(i.before.events));
  assert.equal(said(/: node 3 failed$/), 1);
  assert.equal(said(/: failure handling of node 1 completed$/), 12);
  assert.equal(said(/arbitration result/), 2, 'every arbitration result is kept');
});
