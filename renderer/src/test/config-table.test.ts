import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ClusterConfigView } from '../contract.js';
import { changeLines, configSections, formatConfigValue, nodeConfigRows } from '../view-model/config-table.js';

const VIEW: ClusterConfigView = {
  name: 'prod',
  generation: 3,
  primaryMgmd: 0,
  receivedAt: Date.UTC(2026, 0, 1, 12, 0, 0),
  nodes: [
    { nodeId: 1, type: 'MGM', hostname: 'mgm', nodeGroup: null, params: { NodeId: 1, HostName: 'mgm', PortNumber: 1186, ArbitrationRank: 1 } },
    { nodeId: 2, type: 'NDB', hostname: 'a', nodeGroup: 0, params: { NodeId: 2, HostName: 'a', DataMemory: 4294967296, NoOfReplicas: 2, HeartbeatIntervalDbDb: 5000, StopOnError: 0 } },
    { nodeId: 3, type: 'NDB', hostname: 'b', nodeGroup: 0, params: { NodeId: 3, HostName: 'b', DataMemory: 102760448, NoOfReplicas: 2, HeartbeatIntervalDbDb: 5000, StopOnError: 0 } },
  ],
  paramInfo: [
    { name: 'DataMemory', unit: 'bytes', defaults: { NDB: 102760448 } },
    { name: 'NoOfReplicas', unit: null, defaults: { NDB: 2 } },
    { name: 'HeartbeatIntervalDbDb', unit: 'ms', defaults: { NDB: 5000 } },
    { name: 'StopOnError', unit: 'bool', defaults: { NDB: 1 } },
    { name: 'PortNumber', unit: null, defaults: { MGM: 1186 } },
    { name: 'ArbitrationRank', unit: null, defaults: { API: 0, MGM: 1 } },
    { name: 'HostName', unit: null, defaults: { NDB: 'localhost', MGM: '' } },
    { name: 'NodeId', unit: null, defaults: { NDB: null, MGM: null } },
  ],
  lastChange: { at: Date.UTC(2026, 0, 1, 11, 0, 0), fromGeneration: 2, toGeneration: 3, changes: [{ nodeId: 2, param: 'DataMemory', before: 102760448, after: 4294967296 }] },
};
const ALL = { text: '', onlyNonDefault: false };

test('values read in their units: bytes as MiB/GiB, milliseconds, Y/N', () => {
  assert.equal(formatConfigValue(4294967296, 'bytes'), '4.0 GiB');
  assert.equal(formatConfigValue(102760448, 'bytes'), '98.0 MiB');
  assert.equal(formatConfigValue(5000, 'ms'), '5000 ms');
  assert.equal(formatConfigValue(120000, 'ms'), '120 s');
  assert.equal(formatConfigValue(0, 'bool'), 'N');
  assert.equal(formatConfigValue(10485760, 'bytes/s'), '10.0 MiB/s');
  assert.equal(formatConfigValue('', null), '(empty)');
});

test('per node type: a value once when all nodes agree, per node when they differ; non-defaults marked', () => {
  const [data, mgm] = configSections(VIEW, ALL);
  assert.equal(data!.type, 'NDB');
  assert.deepEqual(data!.nodeIds, [2, 3]);
  const byName = new Map(data!.rows.map((r) => [r.name, r]));
  assert.equal(byName.get('NoOfReplicas')!.text, '2');
  assert.equal(byName.get('NoOfReplicas')!.nonDefault, false);
  assert.equal(byName.get('StopOnError')!.text, 'N');
  assert.equal(byName.get('StopOnError')!.nonDefault, true);
  const dm = byName.get('DataMemory')!;
  assert.equal(dm.text, null);
  assert.deepEqual(dm.cells, [
    { nodeIds: [2], label: 'node 2', text: '4.0 GiB', nonDefault: true },
    { nodeIds: [3], label: 'node 3', text: '98.0 MiB', nonDefault: false },
  ]);
  assert.equal(dm.nonDefault, true);
  assert.equal(dm.defaultText, '98.0 MiB');
  assert.equal(byName.get('NodeId')!.nonDefault, false, 'no default, nothing to differ from');
  assert.equal(mgm!.rows.find((r) => r.name === 'ArbitrationRank')!.nonDefault, false, 'the MGM default, not the API one');
});

test('the filter matches names and shown values; only-non-default hides the rest', () => {
  const [data] = configSections(VIEW, { text: 'gib', onlyNonDefault: false });
  assert.deepEqual(data!.rows.map((r) => r.name), ['DataMemory']);
  const [onlyChanged] = configSections(VIEW, { text: '', onlyNonDefault: true });
  assert.deepEqual(onlyChanged!.rows.map((r) => r.name), ['DataMemory', 'HostName', 'StopOnError']);
  assert.deepEqual(nodeConfigRows(VIEW, 3, { text: 'memory', onlyNonDefault: false }).map((r) => [r.name, r.text]), [['DataMemory', '98.0 MiB']]);
});

test('the last generation change, in units', () => {
  const c = changeLines(VIEW)!;
  assert.match(c.title, /^Generation 2 → 3 at /);
  assert.deepEqual(c.lines, ['DataMemory: 98.0 MiB → 4.0 GiB (node 2)']);
  assert.equal(changeLines({ ...VIEW, lastChange: null }), null);
});

test('144 data directories that differ only by the node id are one line; values shared by many nodes are one line each', () => {
  const ids = Array.from({ length: 144 }, (_, i) => i + 1);
  const view: ClusterConfigView = {
    ...VIEW,
    nodes: ids.map((id) => ({ nodeId: id, type: 'NDB' as const, hostname: `h${id}`, nodeGroup: Math.floor((id - 1) / 2), params: { DataDir: `/var/lib/mysql-cluster/ndbd${id}`, DataMemory: id <= 72 ? 4294967296 : 102760448, NodeId: id } })),
  };
  const rows = new Map(configSections(view, ALL)[0]!.rows.map((r) => [r.name, r]));
  assert.deepEqual(rows.get('DataDir')!.cells?.map((c) => [c.label, c.text, c.nodeIds.length]), [['each node', '/var/lib/mysql-cluster/ndbd<id>', 144]]);
  assert.deepEqual(rows.get('DataMemory')!.cells?.map((c) => [c.label, c.text, c.nonDefault]), [
    ['nodes 1–72', '4.0 GiB', true],
    ['nodes 73–144', '98.0 MiB', false],
  ]);
  // The node's own id is the value: nothing to fold, each node says its own (1 is not the "1" in "144").
  assert.equal(rows.get('NodeId')!.cells?.length, 144);
  // Directories that differ otherwise are listed by value.
  const odd: ClusterConfigView = { ...view, nodes: view.nodes.map((n) => ({ ...n, params: { DataDir: n.nodeId === 5 ? '/data/special' : `/d/${n.nodeId}` } })) };
  const cells = configSections(odd, ALL)[0]!.rows[0]!.cells!;
  assert.equal(cells.length, 144);
  assert.equal(cells.find((c) => c.text === '/data/special')?.label, 'node 5');
});

test("NDB's internal `__` parameters come after the ones an operator tunes, in the type table and a node's own", () => {
  const params = { NodeId: 2, __sched_scan_priority: 16, Arbitration: 1, __at_restart_skip_fks: 0, DataMemory: 4294967296 };
  const view: ClusterConfigView = { ...VIEW, nodes: [{ nodeId: 2, type: 'NDB', hostname: 'a', nodeGroup: 0, params }] };
  const order = ['Arbitration', 'DataMemory', 'NodeId', '__at_restart_skip_fks', '__sched_scan_priority'];
  assert.deepEqual(configSections(view, ALL)[0]!.rows.map((r) => r.name), order);
  assert.deepEqual(nodeConfigRows(view, 2, ALL).map((r) => r.name), order);
});
