import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Alert } from '../../../contract/schemas/events.js';
import type { NodeStatus } from '../../../contract/schemas/node.js';
import { arbitCode, WireCluster } from '../../features/incidents/test/wire-events.js';
import { quietListener } from '../../test/tracker-fixture.js';

const T = 1_700_000_000_000;
/** WireCluster's management server. */
const MGMD = 5;

/** A record as the server writes it (spec §6.3): type, time, source, then the §6.6 table's fields in order. */
const record = (type: number, source: number, fields: ReadonlyArray<readonly [string, number]>): string =>
  `log event reply\ntype=${type}\ntime=0\nsource_nodeid=${source}\n${fields.map(([k, v]) => `${k}=${v}\n`).join('')}`;
const failRep = (reporter: number, failed: number): string => record(28, reporter, [['failed_node', failed], ['failure_state', 1]]);
/** ArbitResult in QMGR's ARBIT_CHOOSE state (7), as the simulator reports a split's results. */
const arbitResult = (president: number, result: number): string =>
  record(30, president, [['code', arbitCode(7, result)], ['arbit_node', MGMD], ['ticket_0', 1977], ['ticket_1', 4242]]);
const forcedStop = (node: number, error: number): string => record(59, node, [['action', 1], ['signum', 0], ['error', error], ['sphase', 255], ['extra', 0]]);
const disconnected = (source: number, node: number): string => record(1, source, [['node', node]]);

/** A 4-data-node cluster (groups {1,2}, {3,4}, mgmd 5) watched since T, every data node STARTED, its alerts kept. */
function watched(): { c: WireCluster; alerts: Alert[]; status: (id: number) => NodeStatus | undefined } {
  const alerts: Alert[] = [];
  const c = new WireCluster({ ...quietListener, alert: (a) => alerts.push(a) });
  c.poll(T);
  return { c, alerts, status: (id) => c.tracker.snapshot().nodes.find((n) => n.nodeId === id)?.status };
}

const downAlerts = (alerts: Alert[]): number[] => alerts.filter((a) => a.kind === 'node-down').map((a) => a.nodeId ?? -1).sort();
const leftStarted = (c: WireCluster, id: number): boolean =>
  c.tracker.timelineView(undefined).nodes.find((n) => n.nodeId === id)?.segments.some((s) => s.status !== 'STARTED') ?? true;

/**
 * Two sites, each with a node of every group: 1 and 3 on one, 2 and 4 on the other. Across the split each half
 * reports the other failed; president 1's half wins.
 */
const SPLIT = { winners: [1, 3], losers: [2, 4] } as const;

/** Each half reports every node of the other failed, one record a millisecond from `t`, `first` half first. */
function bothHalvesReport(c: WireCluster, t: number, first: 'winners' | 'losers'): void {
  const [a, b] = first === 'winners' ? [SPLIT.winners, SPLIT.losers] : [SPLIT.losers, SPLIT.winners];
  let at = t;
  for (const [reporters, failed] of [[a, b], [b, a]] as const) for (const r of reporters) for (const f of failed) c.at(at++, failRep(r, f));
}

test('a split, the losing half reporting first: the winners never leave STARTED, the losers go down when the winning president hears it won', () => {
  const { c, alerts, status } = watched();
  const t = T + 10_000;
  bothHalvesReport(c, t, 'losers');
  c.at(t + 20, arbitResult(1, 45)).at(t + 21, arbitResult(2, 45));
  for (const id of [1, 2, 3, 4]) assert.equal(status(id), 'STARTED', `node ${id}: both halves reported failed, nothing settled yet`);

  c.at(t + 70, arbitResult(1, 46));
  for (const id of SPLIT.losers) assert.equal(status(id), 'NO_CONTACT', `node ${id}: the winning president reported it failed`);
  c.at(t + 71, arbitResult(2, 47));
  for (const id of SPLIT.losers) c.at(t + 72, forcedStop(id, 2305)).at(t + 73, disconnected(MGMD, id));
  c.set(2, 'NO_CONTACT').set(4, 'NO_CONTACT').poll(t + 300);

  for (const id of SPLIT.winners) {
    assert.equal(status(id), 'STARTED');
    assert.equal(leftStarted(c, id), false, `node ${id}: never NO_CONTACT on the timeline`);
  }
  assert.deepEqual(downAlerts(alerts), SPLIT.losers, 'node-down for the losers only');
  assert.equal(alerts.filter((a) => a.kind === 'node-group-offline').length, 0, 'no node group ever looked offline');
  assert.deepEqual(c.tracker.incidents.list().map((i) => i.nodeIds), [SPLIT.losers]);
});

test('a split whose loser hears first, a poll asked mid-arbitration: the poll settles the reports, the losers fall on their own forced stop', () => {
  const { c, alerts, status } = watched();
  const t = T + 10_000;
  bothHalvesReport(c, t, 'winners');
  // `get status` while the arbitrator is asked: the management server still sees all four up.
  c.poll(t + 50);
  c.at(t + 60, arbitResult(2, 47)).at(t + 61, arbitResult(1, 46));
  for (const id of [1, 2, 3, 4]) assert.equal(status(id), 'STARTED', `node ${id}: the poll asked after the reports saw it up`);
  c.at(t + 62, forcedStop(2, 2305));
  assert.equal(status(2), 'NO_CONTACT', 'its own forced stop');
  c.at(t + 63, forcedStop(4, 2305));
  c.set(2, 'NO_CONTACT').set(4, 'NO_CONTACT').poll(t + 300);
  assert.deepEqual(downAlerts(alerts), SPLIT.losers);
  for (const id of SPLIT.winners) assert.equal(leftStarted(c, id), false, `node ${id}`);
});

test('a crash told only by the survivors\' reports goes down at the president\'s result; a report the management server contradicted does not come back', () => {
  const { c, alerts, status } = watched();
  const t = T + 10_000;
  // A data node's own link report is its view, not the management server's.
  c.at(t, disconnected(1, 3)).at(t + 1, failRep(1, 3)).at(t + 2, failRep(2, 3)).at(t + 3, failRep(4, 3));
  assert.equal(status(3), 'STARTED', 'a claim until it is settled');
  c.at(t + 20, arbitResult(1, 43));
  assert.equal(status(3), 'NO_CONTACT', 'the president survived with a full node group: its report stands');
  assert.deepEqual(downAlerts(alerts), [3]);

  // Node 2 reports node 4 failed, but the management server, asked after, still sees node 4 up.
  c.set(3, 'NO_CONTACT');
  c.at(t + 1000, failRep(2, 4));
  c.poll(t + 1100);
  c.at(t + 2000, arbitResult(2, 42));
  assert.equal(status(4), 'STARTED', 'a report the poll contradicted is no longer anyone\'s word');
  // A node that is down is no witness: node 3's report about node 1 is not taken, even by its own later win.
  c.at(t + 3000, failRep(3, 1)).at(t + 3001, arbitResult(3, 46));
  assert.equal(status(1), 'STARTED');
  c.at(t + 4000, disconnected(MGMD, 1));
  assert.equal(status(1), 'NO_CONTACT', 'the management server\'s own Disconnected marks a node down at once');
  assert.deepEqual(downAlerts(alerts), [1, 3]);
});

test('Connected: the management server\'s own link to a node that fell (NOT_STARTED, §8.3); a data node\'s link to it says nothing of that', () => {
  const { c, status } = watched();
  const t = T + 10_000;
  const connected = (source: number, node: number): string => record(0, source, [['node', node]]);
  c.at(t, forcedStop(3, 6000));
  assert.equal(status(3), 'NO_CONTACT');
  // §6.6.1: the link from source_nodeid to node is up; node 1's link to node 3 is not the management server's.
  c.at(t + 10, connected(1, 3)).at(t + 11, connected(4, 3));
  assert.equal(status(3), 'NO_CONTACT', 'data nodes 1 and 4 said they connected to node 3');
  c.at(t + 20, connected(MGMD, 3));
  assert.equal(status(3), 'NOT_STARTED', 'the management server connected to node 3');
});
