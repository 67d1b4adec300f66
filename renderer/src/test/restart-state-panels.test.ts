import assert from 'node:assert/strict';
import { test } from 'node:test';
import { restartState } from '../../../electron/engine/cluster/restart-state.js';
import type { NdbinfoNode, NdbinfoRestart, NodeStatus, NodeView, RollingRestart } from '../contract.js';
import { startingNodePhases } from '../view-model/restarts/restart-phase-rows.js';
import { restartingLines } from '../view-model/restarts/restart-state-text.js';
import { nodeView } from './fixtures.js';

const NOW = 100_000;

function row(statusName: string, since: number): NdbinfoRestart {
  return { at: NOW - 500, since, status: statusName.replace(/_/g, ' ').toLowerCase(), statusName, inProgress: statusName !== 'RESTART_COMPLETED', phases: { secs_to_complete_node_failure: 1, secs_to_allocate_node_id: 5 }, totalSecs: 6 };
}

/** A data node as the engine sends it: the management server's status and start phase, and its one restart state from both sources. */
function node(nodeId: number, status: NodeStatus, startPhase: number, since: number, restart: NdbinfoRestart): NodeView {
  return nodeView(nodeId, { status, statusRaw: status, startPhase, statusSince: since, restartState: restartState({ status, startPhase, since, current: true }, { ...restart, stale: false }) });
}


test('the Restart phases table and the restart progress panel say the same restart state of a node', () => {
  // The 48-node rolling restart: node 13 completed start phase 4 while restart_info still read it joining the
  // cluster; node 5 was STARTED again while restart_info still read it waiting for a local checkpoint.
  const nodes = new Map<number, NodeView>([
    [13, node(13, 'STARTING', 4, NOW - 2_000, row('INCLUDED_IN_HB_PROTOCOL', NOW - 9_000))],
    [5, node(5, 'STARTED', 0, NOW - 3_000, row('WAIT_LCP_FOR_RESTART', NOW - 1_000))],
  ]);
  const figures = new Map<number, NdbinfoNode>(
    [13, 5].map((id) => [id, { nodeId: id, stale: false, threads: null, redo: null, undo: null, sendBuffer: null, diskWrite: null, restart: row(id === 13 ? 'INCLUDED_IN_HB_PROTOCOL' : 'WAIT_LCP_FOR_RESTART', NOW - 9_000) }]),
  );
  const round: RollingRestart = {
    source: 'observed',
    startedAt: NOW - 60_000,
    restarts: [
      { nodeId: 5, from: NOW - 60_000, to: NOW - 3_000 },
      { nodeId: 13, from: NOW - 20_000, to: null },
    ],
    done: [5],
    inProgress: [13],
    remaining: [],
    next: null,
    complete: false,
    paceMs: 57_000,
    etaAt: null,
    etaRange: null,
    etaBasis: 0,
  };
  const table = startingNodePhases(nodes, figures, round, null, NOW);
  assert.deepEqual(
    table.map((r) => r.nodeId),
    [13],
    'node 5 is STARTED: the table does not list it as waiting for a local checkpoint',
  );
  const [thirteen] = table;
  assert.ok(thirteen);
  const panel = restartingLines(round.inProgress, nodes);
  assert.deepEqual(
    panel.map((l) => l.nodeId),
    [13],
  );
  assert.equal(thirteen.now, panel[0]?.words);
  assert.equal(thirteen.source, panel[0]?.source);
  assert.equal(thirteen.now, 'copying the dictionary');
  // The table's running column is the same phase its words name, and it says which source named it.
  assert.equal(thirteen.progress?.current, 'dictionary');
  assert.equal(thirteen.progress?.rows.find((r) => r.state === 'running')?.key, 'dictionary');
  assert.equal(thirteen.source, 'from the management server (start phase 4 done)');
});
