import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { NdbinfoLink, NodeView } from '../../contract.js';
import { apiShares, cellKey, cellTone, fillTone, linkText, nodeTypes, nodeTypesKey, partLabel, redoWritten, transportMatrix } from '../../view-model/inside/io-figures.js';

const node = (nodeId: number, type: NodeView['type']): [number, NodeView] => [nodeId, { nodeId, type } as NodeView];
const NODES = nodeTypes(nodeTypesKey(new Map([node(2, 'NDB'), node(3, 'NDB'), node(1, 'MGM'), node(50, 'API'), node(51, 'API'), node(52, 'API'), node(53, 'API')])));

function link(nodeId: number, remoteNodeId: number, perSec: number, extra: Partial<NdbinfoLink> = {}): NdbinfoLink {
  return { nodeId, remoteNodeId, status: 'CONNECTED', sentPerSec: perSec, receivedPerSec: perSec, overloaded: false, slowdown: false, bytesSent: 0, bytesReceived: 0, overloadCount: 0, slowdownCount: 0, ...extra };
}

test('log fill tones follow the alert marks; the fullest part is named when there are several', () => {
  const fill = (percent: number | null, parts = 4) => ({ at: 0, used: 1, total: 2, percent, logId: 0, logPart: 3, parts });
  assert.deepEqual([fillTone(fill(79.9)), fillTone(fill(80)), fillTone(fill(90)), fillTone(fill(null)), fillTone(null)], ['ok', 'warn', 'bad', 'muted', 'muted']);
  assert.equal(partLabel(fill(50)), 'log 0 part 3 (of 4)');
  assert.equal(partLabel(fill(50, 1)), '');
});

test('the transport matrix: data nodes as rows, data nodes first among the columns, each link with its state', () => {
  const m = transportMatrix([link(3, 50, 10), link(2, 3, 100, { overloaded: true, slowdown: true }), link(3, 2, 100, { slowdown: true }), link(2, 1, 5), link(2, 50, 10)], NODES);
  assert.deepEqual(m.rows, [2, 3]);
  assert.deepEqual(m.columns.map((c) => c.nodeId), [2, 3, 1, 50]);
  assert.deepEqual([cellTone(m.cells.get(cellKey(2, 3))), cellTone(m.cells.get(cellKey(3, 2))), cellTone(m.cells.get(cellKey(2, 1))), cellTone(m.cells.get(cellKey(3, 1)))], ['bad', 'warn', 'ok', 'muted']);
});

test('API shares: one SQL node well under an even share stands out; an unconnected slot is not counted', () => {
  const links = [50, 51, 52].flatMap((api) => [link(2, api, api === 52 ? 200 : 1000), link(3, api, api === 52 ? 200 : 1000)]);
  const shares = apiShares([...links, link(2, 53, 0, { status: 'CONNECTING' })], NODES);
  assert.deepEqual(shares.map((s) => [s.nodeId, Math.round(s.share * 100), s.behind]), [[50, 45, false], [51, 45, false], [52, 9, true]]);
  assert.equal(shares[0]?.bytesPerSec, 4000);
  assert.deepEqual(apiShares(links.filter((l) => l.remoteNodeId === 50), NODES).map((s) => s.behind), [false], 'alone, nothing to be behind');
});

test('a link in words: both directions of its bytes, its state now and its counts; a node has no link to itself', () => {
  const m = transportMatrix([link(2, 3, 2_500_000, { receivedPerSec: 1200, overloaded: true, overloadCount: 4, slowdownCount: 9 }), link(2, 50, 0, { status: 'CONNECTING' }), link(3, 2, 10)], NODES);
  const text = (from: number, to: number): string => linkText(from, m.columns.find((c) => c.nodeId === to) ?? { nodeId: to, type: null }, m.cells.get(cellKey(from, to)));
  assert.equal(text(2, 3), 'node 2 → node 3 (NDB): sends 2.5 MB/s, receives 1.2 kB/s; overloaded now; overloaded 4, slowed down 9 times since the data node started');
  assert.equal(text(2, 50), 'node 2 → node 50 (API): connecting');
  assert.equal(text(2, 2), 'node 2 → node 2 (NDB): a node has no link to itself');
  assert.deepEqual([...nodeTypes('')], [], 'no nodes, no types');
});

test('redo written: "—" until a rate exists (the first reading of a node), then its bytes per second', () => {
  assert.equal(redoWritten({ redoBytesPerSec: 0, ioLagPerSec: null }), '—');
  assert.equal(redoWritten(null), '—');
  assert.equal(redoWritten({ redoBytesPerSec: 3_200_000, ioLagPerSec: 0 }), '3.2 MB/s');
  assert.equal(redoWritten({ redoBytesPerSec: 0, ioLagPerSec: 0 }), '0 B/s');
});
