import assert from 'node:assert/strict';
import { test } from 'node:test';
import { initialRestartNotes } from '../plan/initial-restart.js';

test('after a configuration change: the parameters that need an initial restart, with their nodes and generations; others, and API or added nodes, say nothing', () => {
  const change = {
    fromGeneration: 3,
    toGeneration: 4,
    changes: [
      { nodeId: 2, param: 'NoOfFragmentLogFiles', before: 16, after: 32 },
      { nodeId: 3, param: 'NoOfFragmentLogFiles', before: 16, after: 32 },
      { nodeId: 2, param: 'DataMemory', before: 1, after: 2 },
      { nodeId: 2, param: 'NoOfReplicas', before: 2, after: 3 },
      { nodeId: 50, param: 'DataDir', before: '/a', after: '/b' },
      { nodeId: 6, param: 'FileSystemPath', before: null, after: '/x' },
    ],
  };
  const notes = initialRestartNotes(change, [2, 3, 4, 5, 6]);
  assert.deepEqual(notes, [
    'NoOfFragmentLogFiles changed on nodes 2, 3 (configuration generation 3 → 4): it needs an initial node restart: nodes 2, 3 restarted with --initial one node of a node group at a time (ndb_mgm -e "2 restart -i"), instead of the normal restart this plan sends. ndbtop does not start an initial restart; do it by hand',
    'NoOfReplicas changed on node 2 (configuration generation 3 → 4): it needs an initial system restart: the whole cluster stopped and started with --initial, its data restored from a backup. ndbtop does not start an initial restart; do it by hand',
  ]);
  assert.deepEqual(initialRestartNotes(null, [2, 3]), []);
});
