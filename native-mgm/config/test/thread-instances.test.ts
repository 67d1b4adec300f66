import assert from 'node:assert/strict';
import { test } from 'node:test';
import { blockInstances, buildClusterConfig, parseConfigIni, threadConfigFor } from '../index.js';

test('ThreadConfig decides the instances: ldm and tc counts, each receive thread running one when there are none', () => {
  assert.deepEqual(blockInstances({ ThreadConfig: 'ldm={count=8,cpubind=1-8},tc={count=4},main,rep,recv={count=2},send' }), { tc: 4, lqh: 8 });
  assert.deepEqual(blockInstances({ ThreadConfig: 'main, ldm , ldm, tc={cpubind=3}, recv' }), { tc: 1, lqh: 2 });
  assert.deepEqual(blockInstances({ ThreadConfig: 'main,rep,recv={count=3}' }), { tc: 3, lqh: 3 });
  assert.deepEqual(blockInstances({ ThreadConfig: 'LDM={Count=6},TC={count=2}' }), { tc: 2, lqh: 6 });
  // Set, ThreadConfig wins over MaxNoOfExecutionThreads, as in the server's Configuration.cpp.
  assert.deepEqual(blockInstances({ ThreadConfig: 'ldm={count=2},tc', MaxNoOfExecutionThreads: 72 }), { tc: 1, lqh: 2 });
  assert.equal(blockInstances({ ThreadConfig: 'ldm={count=2' }), null, 'a string the data node would refuse decides nothing');
});

test('MaxNoOfExecutionThreads decides them through the server\'s table; absent means 0, one LDM and one TC', () => {
  const at = (n: number) => blockInstances({ MaxNoOfExecutionThreads: n });
  assert.deepEqual([0, 2, 3].map(at), [{ tc: 1, lqh: 1 }, { tc: 1, lqh: 1 }, { tc: 1, lqh: 1 }]);
  assert.deepEqual([4, 6, 7, 8].map(at), [{ tc: 1, lqh: 2 }, { tc: 1, lqh: 2 }, { tc: 1, lqh: 4 }, { tc: 1, lqh: 4 }]);
  assert.deepEqual([9, 10, 11, 12, 16, 32, 48, 64, 72].map(at), [
    { tc: 2, lqh: 4 },
    { tc: 2, lqh: 4 },
    { tc: 3, lqh: 4 },
    { tc: 2, lqh: 6 },
    { tc: 3, lqh: 8 },
    { tc: 7, lqh: 16 },
    { tc: 11, lqh: 24 },
    { tc: 15, lqh: 32 },
    { tc: 20, lqh: 32 },
  ]);
  assert.deepEqual(at(200), at(72), 'past the table: its last row');
  assert.deepEqual(blockInstances({}), { tc: 1, lqh: 1 });
  assert.deepEqual(blockInstances({ ThreadConfig: '  ', MaxNoOfExecutionThreads: 8 }), { tc: 1, lqh: 4 }, 'an empty ThreadConfig is not set');
});

test('AutomaticThreadConfig sizes the threads from the host\'s CPUs: the configuration does not decide', () => {
  assert.equal(blockInstances({ AutomaticThreadConfig: 1, ThreadConfig: 'ldm={count=4}', MaxNoOfExecutionThreads: 16 }), null);
});

test('a config.ini read as ndb_mgmd reads it decides per data node; threadConfigFor gives back the counts it is made from', () => {
  const config = parseConfigIni(['[ndbd default]', 'NoOfReplicas=2', 'MaxNoOfExecutionThreads=11', '[ndb_mgmd]', 'NodeId=1', '[ndbd]', 'NodeId=2', '[ndbd]', 'NodeId=3', 'ThreadConfig=ldm={count=2},tc,recv', '[ndbd]', 'NodeId=4', 'AutomaticThreadConfig=1', '[ndbd]', 'NodeId=5', ''].join('\n'));
  assert.deepEqual(config.nodes.filter((n) => n.type === 'NDB').map((n) => [n.nodeId, blockInstances(n.params)]), [
    [2, { tc: 3, lqh: 4 }],
    [3, { tc: 1, lqh: 2 }],
    [4, null],
    [5, { tc: 3, lqh: 4 }],
  ]);
  for (const counts of [{ tc: 1, lqh: 1 }, { tc: 3, lqh: 2 }, { tc: 4, lqh: 4 }, { tc: 16, lqh: 32 }]) {
    const built = buildClusterConfig({ name: 'c', nodes: [{ nodeId: 2, type: 'NDB', params: { ThreadConfig: threadConfigFor(counts) } }] });
    assert.deepEqual(blockInstances(built.nodes[0]!.params), counts);
  }
});
