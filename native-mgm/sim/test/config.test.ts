import assert from 'node:assert/strict';
import { test } from 'node:test';
import { blockInstances, decodeConfig } from '../../config/index.js';
import { eventually, withSim, type RawConnection } from './raw-socket.js';

const GET_CONFIG = 'get config_v2\nversion: 525315\nnodetype: 1\nfrom_node: 0\n\n';

async function fetchConfig(c: RawConnection, request = GET_CONFIG): Promise<ReturnType<typeof decodeConfig>> {
  const header = await c.request(request);
  const m = /Content-Length: (\d+)\n/.exec(header);
  assert.ok(m, header);
  const body = await c.readExactly(Number(m[1]) + 1);
  return decodeConfig(body.slice(0, -1));
}

test('get config_v2 is a packed v2 configuration of the simulated cluster, consistent with status and memory reports', async () => {
  await withSim({ dataNodes: 4, replicas: 2, mgmNodes: 2, apiNodes: 3, tcInstances: 3, lqhInstances: 2 }, async (sim, open) => {
    const c = await open();
    const config = await fetchConfig(c);
    assert.equal(config.generation, 1);
    assert.equal(config.name, 'MC_SIMULATED');
    const data = config.nodes.filter((n) => n.type === 'NDB');
    assert.deepEqual(data.map((n) => [n.nodeId, n.nodeGroup, n.hostname]), [...sim.model.data.values()].map((d) => [d.id, d.nodeGroup, d.address]));
    assert.ok(data.every((n) => n.params['NoOfReplicas'] === 2));
    // Its ThreadConfig gives each data node the TC and LQH instances the simulator reports statistics from.
    assert.ok(data.every((n) => JSON.stringify(blockInstances(n.params)) === JSON.stringify({ tc: 3, lqh: 2 })), JSON.stringify(data[0]?.params['ThreadConfig']));
    const mgm = config.nodes.filter((n) => n.type === 'MGM');
    assert.deepEqual(mgm.map((n) => [n.nodeId, n.hostname, n.params['PortNumber']]), sim.mgmds.map((m) => [m.nodeId, m.host, m.port]));
    assert.deepEqual(config.nodes.filter((n) => n.type === 'API').map((n) => n.nodeId), [...sim.model.api.keys()]);
    // Every data node talks to every other node (add_node_connections).
    assert.equal(config.connections.length, 6 + 4 * 2 + 4 * 3);
    // DataMemory and IndexMemory are what the MemoryUsage reports count pages of.
    assert.equal(await c.request('dump events\ntype: 50\n\n'), 'dump events reply\nresult: Ok\nevents: 8\n\n');
    for (let i = 0; i < 8; i++) {
      const r = await c.readReply();
      const f = Object.fromEntries(r.split('\n').filter((l) => l.includes('=')).map((l) => l.split('=') as [string, string]));
      const node = data.find((n) => n.nodeId === Number(f['source_nodeid']))!;
      const bytes = Number(f['pages_total']) * Number(f['page_size_bytes']);
      assert.equal(bytes, f['block'] === '249' ? node.params['DataMemory'] : node.params['IndexMemory']);
    }
  });
});

test('get config: node: N keeps only N\'s connections; from_node is checked with the server\'s texts', async () => {
  await withSim({ dataNodes: 2, apiNodes: 2 }, async (sim, open) => {
    const c = await open();
    const only = await fetchConfig(c, 'get config_v2\nversion: 525315\nnodetype: 1\nnode: 4\nfrom_node: 0\n\n');
    assert.deepEqual(only.connections.map((x) => [x.nodeId1, x.nodeId2]), [[4, 2], [4, 3]]);
    // As other clients of the protocol ask: nodetype -1, no from_node; node: 0 means every link.
    const all = await fetchConfig(c, 'get config_v2\nversion: 524311\nnodetype: -1\nnode: 0\n\n');
    assert.equal(all.connections.length, 1 + 2 + 2 * 2);
    const err = (n: number): Promise<string> => c.request(`get config_v2\nversion: 525315\nnodetype: 1\nfrom_node: ${n}\n\n`);
    assert.equal(await err(1000), 'get config reply\nresult: Nodeid 1000 is greater than max nodeid 255. \n\n');
    assert.equal(await err(200), 'get config reply\nresult: Nodeid 200 does not exist. \n\n');
    assert.equal(await err(1), 'get config reply\nresult: Node 1 is not a data node. \n\n');
    assert.equal((await fetchConfig(c, 'get config_v2\nversion: 525315\nnodetype: 1\nfrom_node: 2\n\n')).nodes.length, 5);
    sim.model.failNode(2, { autoRestart: false });
    await eventually(() => sim.model.data.get(2)!.status, (s) => s === 'NO_CONTACT');
    assert.equal(await err(2), 'get config reply\nresult: Data node 2 is not alive. \n\n');
  });
});

const nodeIdRequest = (type: number, id = 0): string =>
  `get nodeid\nversion: 525315\nnodetype: ${type}\nnodeid: ${id}\nuser: mysqld\npassword: mysqld\npublic key: a public key\nendian: little\nname: tool\n\n`;

test('get nodeid reserves a free slot for the session; a taken one is refused until that session ends', async () => {
  // API slots 4..7; 4, 5, 6 are connected, 7 is free.
  await withSim({ dataNodes: 2, apiNodes: 4 }, async (_sim, open) => {
    const a = await open();
    const b = await open();
    assert.equal(await a.request(nodeIdRequest(1)), 'get nodeid reply\nnodeid: 7\nresult: Ok\n\n');
    assert.equal(await b.request(nodeIdRequest(1, 7)), 'get nodeid reply\nresult: Id 7 already allocated by another node.\n\n');
    assert.equal(await b.request(nodeIdRequest(1)), 'get nodeid reply\nresult: No free node id found for mysqld(API).\n\n');
    assert.equal(await b.request(nodeIdRequest(1, 4)), 'get nodeid reply\nresult: Id 4 already allocated by another node.\n\n');
    assert.equal(await b.request(nodeIdRequest(1, 2)), 'get nodeid reply\nresult: Id 2 configured as ndbd(NDB), connect attempted as mysqld(API).\n\n');
    assert.equal(await b.request(nodeIdRequest(1, 99)), 'get nodeid reply\nresult: No node defined with id=99 in config file.\n\n');
    // The holder may ask again for its own id.
    assert.equal(await a.request(nodeIdRequest(1, 7)), 'get nodeid reply\nnodeid: 7\nresult: Ok\n\n');
    a.close();
    await a.waitClosed();
    await eventually(() => b.request(nodeIdRequest(1, 7)), (r) => r === 'get nodeid reply\nnodeid: 7\nresult: Ok\n\n');
  });
});

test('property: every configuration the simulator can produce survives encode → decode', async () => {
  const fc = (await import('fast-check')).default;
  const { buildTopology } = await import('../state/topology.js');
  const { configFromTopology } = await import('../config/sim-config.js');
  const { encodePackedConfig, decodePackedConfig } = await import('../../config/index.js');
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 4 }).chain((replicas) =>
        fc.record({
          replicas: fc.constant(replicas),
          dataNodes: fc.integer({ min: 1, max: Math.floor(72 / replicas) }).map((g) => g * replicas),
          mgmNodes: fc.integer({ min: 1, max: 2 }),
          apiNodes: fc.integer({ min: 0, max: 40 }),
          port: fc.integer({ min: 1, max: 65535 }),
        }),
      ),
      (o) => {
        const topology = buildTopology(o);
        const config = configFromTopology(topology, new Map(topology.mgm.map((m, i) => [m.id, { host: '127.0.0.1', port: o.port + i }])));
        assert.deepEqual(decodePackedConfig(encodePackedConfig(config)), config);
      },
    ),
    { numRuns: 60 },
  );
});

test('show config prints the served configuration, filtered by Section, NodeId and Name', async () => {
  await withSim({ dataNodes: 2 }, async (sim, open) => {
    const c = await open();
    assert.equal(await c.request('show config\nSection: ndbd\nNodeId: 3\nName: DataMemory\n\n'), 'show config reply\n[ndbd]\nDataMemory=2147483648\n\n');
    assert.equal(await c.request('show config\nSection: MGM\nName: PortNumber\n\n'), `show config reply\n[ndb_mgmd]\nPortNumber=${sim.mgmds[0]!.port}\n\n`);
  });
});

test('a 255-node cluster: the whole configuration (26,280 connections) and the small one a monitor asks for', async () => {
  await withSim({ dataNodes: 144, replicas: 2, mgmNodes: 2, apiNodes: 109 }, async (_sim, open) => {
    const c = await open();
    const small = await fetchConfig(c, 'get config_v2\nversion: 525315\nnodetype: 1\nnode: 255\nfrom_node: 0\n\n');
    assert.equal(small.nodes.length, 255);
    assert.equal(small.connections.length, 144);
    const whole = await fetchConfig(c);
    assert.equal(whole.connections.length, (144 * 143) / 2 + 144 * 111);
    assert.equal(whole.nodes.filter((n) => n.type === 'NDB').at(-1)!.nodeGroup, 71);
  });
});
