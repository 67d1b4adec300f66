import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ConfigFormatError, MgmError } from '../../errors.js';
import type { ClusterConfig, ConfigNode } from '../cluster-config.js';
import { decodeConfig, decodeConfigBase64, decodePackedConfig } from '../decode.js';
import { encodeConfigBase64, encodePackedConfig } from '../encode.js';
import { REFERENCE_BLOB } from './reference-blob.js';

test('the reference blob decodes to the values the spec lists (§4.18.1)', () => {
  const c = decodeConfig(REFERENCE_BLOB);
  assert.equal(c.name, 'MC_20210614170132');
  assert.equal(c.generation, 1);
  assert.equal(c.primaryMgmd, 50);
  const data = c.nodes.filter((n) => n.type === 'NDB');
  assert.deepEqual(data.map((n) => n.nodeId), [2, 3]);
  assert.deepEqual(c.nodes.filter((n) => n.type === 'API').map((n) => n.nodeId), [145, 146, 147, 148, 149, 150, 151, 152, 153, 154]);
  assert.deepEqual(c.nodes.filter((n) => n.type === 'MGM').map((n) => n.nodeId), [50]);
  for (const n of data) {
    assert.equal(n.params['NoOfReplicas'], 2);
    assert.equal(n.params['DataMemory'], 209715200);
    assert.equal(n.params['MaxNoOfTables'], 128);
    assert.equal(n.params['BackupDataDir'], '/home/mysql/datadir/ndb_data');
    assert.equal(n.nodeGroup, 0);
  }
  // A node's own entry wins over its type's default section (node 2); node 3 takes the default's.
  assert.equal(data[0]!.params['DataDir'], '/home/mysql/datadir/ndb_data/node2');
  assert.equal(data[1]!.params['DataDir'], '/home/mysql/datadir/ndb_data/node3');
  const mgm = c.nodes.find((n) => n.nodeId === 50)!;
  assert.equal(mgm.hostname, 'localhost');
  assert.equal(mgm.params['PortNumber'], 1186);
  assert.equal(mgm.params['ArbitrationRank'], 1);
  assert.equal(c.nodes.find((n) => n.nodeId === 145)!.params['ArbitrationRank'], 0);
  assert.equal(c.connections.length, 12);
  assert.deepEqual(c.connections[1], {
    type: 'TCP',
    nodeId1: 50,
    nodeId2: 2,
    params: { ...c.connections[1]!.params, PortNumber: 1186, HostName1: 'localhost', NodeIdServer: 50 },
  });
  assert.equal(c.connections[0]!.params['SendSignalId'], 1);
});

test('the reference blob survives decode → encode → decode', () => {
  const c = decodeConfig(REFERENCE_BLOB);
  assert.deepEqual(decodePackedConfig(encodePackedConfig(c)), c);
});

test('encodeConfigBase64 wraps at 76 characters like the server (§4.18)', () => {
  const text = encodeConfigBase64(decodeConfig(REFERENCE_BLOB));
  const lines = text.split('\n');
  assert.ok(lines.slice(0, -1).every((l) => l.length === 76));
  assert.ok(lines.at(-1)!.length <= 76 && !text.endsWith('\n'));
});

function withChecksum(b: Buffer): Buffer {
  let x = 0;
  for (let i = 0; i < b.length - 4; i += 4) x ^= b.readUInt32BE(i);
  b.writeUInt32BE(x >>> 0, b.length - 4);
  return b;
}

test('bad input is a ConfigFormatError that names what was wrong', () => {
  const good = decodeConfigBase64(REFERENCE_BLOB);
  const cases: Array<[string, () => unknown, RegExp]> = [
    ['bad base64', () => decodeConfig('TkRC*09ORjI='), /not base64/],
    ['v1 magic', () => decodePackedConfig(Buffer.concat([Buffer.from('NDBCONFV'), good.subarray(8)])), /v1 configuration/],
    ['wrong magic', () => decodePackedConfig(Buffer.concat([Buffer.from('XXXXXXXX'), good.subarray(8)])), /wrong magic/],
    ['truncated', () => decodePackedConfig(good.subarray(0, 400)), /header says 721 words/],
    ['checksum', () => { const b = Buffer.from(good); b[100] = b[100]! ^ 1; return decodePackedConfig(b); }, /checksum mismatch/],
    ['version', () => { const b = Buffer.from(good); b.writeUInt32BE(3, 12); return decodePackedConfig(withChecksum(b)); }, /format version 3/],
    ['section past the end', () => { const b = Buffer.from(good); b.writeUInt32BE(100000, 36); return decodePackedConfig(withChecksum(b)); }, /runs past the end/],
    ['entry count past the section', () => { const b = Buffer.from(good); b.writeUInt32BE(500, 40); return decodePackedConfig(withChecksum(b)); }, /runs past the end|entries end/],
    ['unknown value type', () => { const b = Buffer.from(good); b.writeUInt32BE(0x70000001, 48); return decodePackedConfig(withChecksum(b)); }, /unknown value type 7/],
    ['too short', () => decodePackedConfig(Buffer.from('NDBC')), /too short/],
  ];
  for (const [name, run, message] of cases) {
    assert.throws(run, (err: unknown) => err instanceof ConfigFormatError && err.code === 'PROTOCOL' && message.test(err.message), name);
  }
});

const value = fc.oneof(fc.nat({ max: 0xffffffff }), fc.string({ maxLength: 12 }));

/** Configurations of the shapes the simulator produces: typed parameters plus keys the table does not know. */
const configArb: fc.Arbitrary<ClusterConfig> = fc
  .record({
    name: fc.string({ maxLength: 20 }),
    generation: fc.nat({ max: 0xffffffff }),
    replicas: fc.integer({ min: 1, max: 4 }),
    groups: fc.integer({ min: 1, max: 4 }),
    api: fc.integer({ min: 0, max: 6 }),
    dataMemory: fc.array(fc.integer({ min: 1, max: 2 ** 40 }), { minLength: 1, maxLength: 3 }),
    unknown: fc.dictionary(fc.integer({ min: 1000, max: 5000 }).map(String), value, { maxKeys: 3 }),
    hosts: fc.array(fc.domain(), { minLength: 1, maxLength: 3 }),
  })
  .map((r) => {
    const nodes: ConfigNode[] = [];
    let id = 1;
    nodes.push({ nodeId: id, type: 'MGM', hostname: r.hosts[0]!, nodeGroup: null, params: { NodeId: id, HostName: r.hosts[0]!, PortNumber: 1186, ArbitrationRank: 1 } });
    for (let g = 0; g < r.groups; g++) {
      for (let k = 0; k < r.replicas; k++) {
        id++;
        const host = r.hosts[id % r.hosts.length]!;
        nodes.push({
          nodeId: id,
          type: 'NDB',
          hostname: host,
          nodeGroup: g,
          params: { NodeId: id, HostName: host, NodeGroup: g, NoOfReplicas: r.replicas, DataMemory: r.dataMemory[id % r.dataMemory.length]!, DataDir: `/var/lib/ndb/${id}`, ...r.unknown },
        });
      }
    }
    for (let a = 0; a < r.api; a++) {
      id++;
      nodes.push({ nodeId: id, type: 'API', hostname: '', nodeGroup: null, params: { NodeId: id, HostName: '', ArbitrationRank: 0 } });
    }
    const connections = nodes
      .filter((n) => n.type !== 'NDB')
      .map((n) => ({ type: 'TCP' as const, nodeId1: n.nodeId, nodeId2: 2, params: { NodeId1: n.nodeId, NodeId2: 2, NodeIdServer: 2, HostName1: n.hostname, Group: 55 } }));
    return { name: r.name, generation: r.generation, primaryMgmd: 0, system: {}, nodes, connections };
  });

test('property: encode → decode gives back every configuration', () => {
  fc.assert(
    fc.property(configArb, (c) => {
      assert.deepEqual(decodePackedConfig(encodePackedConfig(c)), c);
    }),
    { numRuns: 300 },
  );
});

test('fuzz: 100k mutated blobs give only typed errors or a configuration', () => {
  const good = decodeConfigBase64(REFERENCE_BLOB);
  const mutation = fc.record({
    at: fc.nat({ max: good.length - 1 }),
    kind: fc.constantFrom('flip', 'word', 'truncate', 'delete', 'insert'),
    value: fc.nat({ max: 0xffffffff }),
    fix: fc.boolean(),
  });
  let decoded = 0;
  fc.assert(
    fc.property(mutation, (m) => {
      let b: Buffer;
      const at = m.at & ~3;
      switch (m.kind) {
        case 'flip':
          b = Buffer.from(good);
          b[m.at] = m.value & 0xff;
          break;
        case 'word':
          b = Buffer.from(good);
          b.writeUInt32BE(m.value, Math.min(at, b.length - 4));
          break;
        case 'truncate':
          b = good.subarray(0, m.at);
          break;
        case 'delete':
          b = Buffer.concat([good.subarray(0, at), good.subarray(at + 4)]);
          break;
        default:
          b = Buffer.concat([good.subarray(0, at), Buffer.alloc(4, m.value & 0xff), good.subarray(at)]);
      }
      // Half of them get a valid length and checksum, so the mutation reaches the section parser.
      if (m.fix && b.length >= 16 && b.length % 4 === 0) {
        b = Buffer.from(b);
        b.writeUInt32BE(b.length / 4, 8);
        withChecksum(b);
      }
      try {
        decodePackedConfig(b);
        decoded++;
      } catch (err) {
        if (!(err instanceof MgmError)) throw err;
      }
    }),
    { numRuns: 100_000 },
  );
  assert.ok(decoded > 0, 'some mutations leave a decodable configuration');
});
