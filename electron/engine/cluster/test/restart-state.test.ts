import { test } from 'node:test';
import assert from 'node:assert/strict';
import { restartState, type MgmRestartFact, type NdbinfoRestartFact } from '../restart-state.js';

const mgm = (status: MgmRestartFact['status'], startPhase: number, since: number, current = true): MgmRestartFact => ({ status, startPhase, since, current });
const row = (statusName: string, since: number, more: Partial<NdbinfoRestartFact> = {}): NdbinfoRestartFact => ({
  at: since + 500,
  since,
  statusName,
  inProgress: statusName !== 'RESTART_COMPLETED',
  phases: {},
  totalSecs: 0,
  stale: false,
  ...more,
});

test('a node the management server reports STARTED is started, however late restart_info says it waits for a local checkpoint', () => {
  // The row's status was first read after the node was STARTED: ndbinfo lags, it is not newer news.
  const s = restartState(mgm('STARTED', 0, 10_000), row('WAIT_LCP_FOR_RESTART', 12_000));
  assert.equal(s.state, 'started');
  assert.equal(s.phase, null);
  assert.equal(s.words, 'started');
  assert.equal(s.source, 'mgm');
  assert.equal(s.since, 10_000);
});

test('start phase 4 done (phase 5 running) is at least copying the dictionary; phase 5 done is at least copying data', () => {
  const lagging = row('INCLUDED_IN_HB_PROTOCOL', 1_000);
  const five = restartState(mgm('STARTING', 5, 9_000), lagging);
  assert.equal(five.state, 'restarting');
  assert.equal(five.phase, 'copy');
  assert.equal(five.words, 'copying data from live nodes');
  assert.equal(five.source, 'mgm');
  assert.equal(five.startPhase, 5);
  assert.equal(restartState(mgm('STARTING', 4, 9_000), lagging).phase, 'dictionary');
  // Without any restart_info row: the start phase alone.
  assert.equal(restartState(mgm('STARTING', 5, 9_000), null).words, 'copying data from live nodes');
});

test('restart_info wins inside a start when its phase is at or past the start phase floor, and says so', () => {
  const s = restartState(mgm('STARTING', 4, 5_000), row('COPY_FRAGMENTS_STARTED', 8_000));
  assert.deepEqual(s, { state: 'restarting', phase: 'copy', words: 'copying data from live nodes', source: 'ndbinfo', since: 8_000, startPhase: 4 });
  const lcp = restartState(mgm('STARTING', 5, 5_000), row('WAIT_LCP_FOR_RESTART', 6_000));
  assert.equal(lcp.words, 'waiting for a local checkpoint');
  assert.equal(lcp.source, 'ndbinfo');
});

test('the newer source wins: with the management server lost, a newer restart_info row; an older one does not', () => {
  const lost = mgm('STARTED', 0, 10_000, false);
  const newer = restartState(lost, row('NODE_FAILED', 20_000));
  assert.equal(newer.state, 'restarting');
  assert.equal(newer.phase, 'failure');
  assert.equal(newer.source, 'ndbinfo');
  assert.equal(newer.since, 20_000);
  const older = restartState(lost, row('NODE_FAILED', 5_000));
  assert.equal(older.state, 'started');
  assert.equal(older.source, 'mgm');
  // A stale (SQL source lost) row older than the start phase does not beat it.
  const stale = restartState(mgm('STARTING', 2, 9_000), row('COPY_FRAGMENTS_STARTED', 3_000, { stale: true }));
  assert.equal(stale.source, 'mgm');
  assert.equal(stale.phase, 'permission');
});

test('a node down by the management server stays down beside a restart_info row that still reads in progress', () => {
  const s = restartState(mgm('NO_CONTACT', 0, 30_000), row('NODE_FAILURE_COMPLETED', 31_000));
  assert.equal(s.state, 'down');
  assert.equal(s.words, 'not in contact');
  assert.equal(s.source, 'mgm');
  assert.equal(restartState(mgm('SHUTTING_DOWN', 2, 30_000), null).state, 'stopping');
});
