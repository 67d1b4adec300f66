import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { NdbinfoRestart } from '../../../../contract/schemas/ndbinfo.js';
import type { ClusterSnapshot } from '../../../../contract/schemas/snapshot.js';
import { EngineClusterPort } from '../ports/engine-port.js';
import { runBack } from '../execution/step-progress.js';
import type { Observation, StepRun } from '../types.js';

/** What a hosted port reads of the engine's snapshot: data nodes 2 and 3 STARTED, and restart_info for those listed. */
function snapshot(restarts: ReadonlyMap<number, NdbinfoRestart>, sql: 'up' | 'lost' = 'up'): ClusterSnapshot {
  const node = (nodeId: number) => ({ nodeId, type: 'NDB', status: 'STARTED', nodeGroup: 0, dynamicId: nodeId, startPhase: 0 });
  return {
    connection: { status: 'live', lastError: null, eventStream: { status: 'live' } },
    alerts: [],
    nodes: [node(2), node(3)],
    ndbinfo: { source: { status: sql } },
    ndbinfoNodes: [...restarts].map(([nodeId, restart]) => ({ nodeId, restart })),
  } as unknown as ClusterSnapshot;
}

const restart = (at: number, inProgress: boolean): NdbinfoRestart => ({ at, status: inProgress ? 'Restart in progress' : 'Restart completed', phases: {}, totalSecs: 0, inProgress });

/** A port whose engine shows `rows` (changed by the test between observations), with the step sent at `sentAt`. */
function port(sentAt: number | null) {
  const rows = new Map<number, NdbinfoRestart>();
  let sql: 'up' | 'lost' = 'up';
  const p = new EngineClusterPort(
    { snapshot: () => snapshot(rows, sql), config: () => null, restart: () => Promise.reject(new Error('not in this test')), now: () => 0 },
    () => sentAt,
  );
  return { rows, setSql: (s: 'up' | 'lost') => (sql = s), completed: async () => (await p.observe()).restartCompleted };
}

test('restart_info: an old completed restart does not count; one under way after the send and then completed does; a node without a row is left to the management server', async () => {
  const { rows, completed } = port(1000);
  rows.set(2, restart(100, false));
  assert.deepEqual(await completed(), [3], 'node 2 only shows the restart before this step; node 3 has no row');
  rows.set(2, restart(1100, true));
  assert.deepEqual(await completed(), [3], 'under way is not complete');
  rows.set(2, restart(1100, false));
  assert.deepEqual(await completed(), [2, 3]);
  assert.deepEqual(await completed(), [2, 3], 'and stays complete');
});

test('restart_info: a restart under way before the send, completed after it, is not the step restart', async () => {
  const { rows, completed } = port(1000);
  rows.set(2, restart(900, true));
  rows.set(3, restart(900, true));
  assert.deepEqual(await completed(), []);
  rows.set(2, restart(900, false));
  assert.deepEqual(await completed(), []);
});

test('restart_info: nothing before a send, and null without a live SQL source', async () => {
  const before = port(null);
  before.rows.set(2, restart(1100, true));
  await before.completed();
  before.rows.set(2, restart(1100, false));
  assert.deepEqual(await before.completed(), [3], 'no step sent: no restart of node 2 is the step restart');
  before.setSql('lost');
  assert.equal(await before.completed(), null);
});

test('runBack: a step is back when its nodes are STARTED again and restart_info, where there is one, says complete', () => {
  const run: StepRun = {
    step: 0,
    attempt: 1,
    send: 'accepted',
    sentAt: 1000,
    answeredAt: 1010,
    lostError: null,
    nodes: [2, 4].map((nodeId) => ({ nodeId, baseline: nodeId, left: true, notStartedSince: null, backAt: 2000 })),
  };
  const obs = (restartCompleted: number[] | null): Observation => ({ at: 2000, connected: true, error: null, nodes: [], criticalAlerts: [], restartCompleted });
  assert.equal(runBack(run, obs([2])), false, 'node 4 STARTED, but restart_info has not completed its restart');
  assert.equal(runBack(run, obs([2, 4])), true);
  assert.equal(runBack(run, obs(null)), true, 'without ndbinfo the management server decides');
  assert.equal(runBack({ ...run, nodes: run.nodes.map((p, i) => (i === 1 ? { ...p, backAt: null } : p)) }, obs([2, 4])), false, 'node 4 not back yet');
  assert.equal(runBack({ ...run, send: 'in-flight' }, obs([2, 4])), true, 'no reply yet, but the status saw the restart happen');
  assert.equal(runBack({ ...run, send: 'refused' }, obs([2, 4])), false, 'a refused restart did not happen, whatever the status');
  assert.equal(runBack(run, { ...obs([2, 4]), connected: false }), false, 'nothing is known without the management server');
});
