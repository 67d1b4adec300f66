import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SPEC_5_7_STATUS } from './golden-status.js';
import { statusMap, withSim } from './raw-socket.js';

const CLIENT_8_4_3 = 'set clientversion\nmajor: 8\nminor: 4\nbuild: 3\n\n';

test('get status reproduces spec §5.7 byte for byte', async () => {
  await withSim({}, async (_sim, open) => {
    const c = await open();
    await c.request(CLIENT_8_4_3);
    assert.equal(await c.request('get status\n\n'), SPEC_5_7_STATUS);
  });
});

test('get status in bytewise and random writes arrives in pieces and still byte for byte', async () => {
  for (const writeMode of ['bytewise', 'random'] as const) {
    await withSim({ writeMode }, async (_sim, open) => {
      const c = await open();
      await c.request(CLIENT_8_4_3);
      assert.equal(await c.request('get status\n\n'), SPEC_5_7_STATUS);
      assert.ok(c.chunks > 20, `${writeMode}: ${c.chunks} chunks`);
    });
  }
});

test('is_single_user appears only after set clientversion >= 8.0.22', async () => {
  await withSim({}, async (_sim, open) => {
    const c = await open();
    const plain = await c.request('get status\n\n');
    assert.doesNotMatch(plain, /is_single_user/);
    assert.equal(plain.split('\n').filter((l) => l.startsWith('node.2.')).length, 9);
    await c.request('set clientversion\nmajor: 8\nminor: 0\nbuild: 21\n\n');
    assert.doesNotMatch(await c.request('get status\n\n'), /is_single_user/);
    await c.request('set clientversion\nmajor: 8\nminor: 0\nbuild: 22\n\n');
    assert.match(await c.request('get status\n\n'), /node\.2\.is_single_user: 0\n/);
    await c.request('set clientversion\nmajor: 0\nminor: 9\nbuild: 9\n\n');
    assert.doesNotMatch(await c.request('get status\n\n'), /is_single_user/);
  });
});

test('types filter: groups in the order given, aliases, stop at the first unknown name', async () => {
  await withSim({}, async (_sim, open) => {
    const c = await open();
    const ids = (reply: string): string[] => [...reply.matchAll(/^node\.(\d+)\.type: /gm)].map((m) => m[1] ?? '');
    const status = async (types: string): Promise<string> => c.request(`get status\ntypes: ${types}\n\n`);
    assert.deepEqual(ids(await status('API MGM')), ['4', '5', '6', '7', '1']);
    assert.deepEqual(ids(await status('ndbd mysqld')), ['2', '3', '4', '5', '6', '7']);
    assert.deepEqual(ids(await status('ndb_mgmd DB')), ['1', '2', '3']);
    assert.deepEqual(ids(await status('NDB MGM ')), ['2', '3', '1']);
    assert.deepEqual(ids(await status('MGM BOGUS NDB')), ['1']);
    assert.match(await status('MGM BOGUS NDB'), /^node status\nnodes: 1\n/);
    assert.equal(await status('ndb'), 'node status\nnodes: 0\n\n');
    assert.equal(await c.request('get status\ntypes:\n\n'), 'node status\nnodes: 0\n\n');
  });
});

test('header variants: version, get mgmd nodeid, check connection, sessions', async () => {
  await withSim({ mgmNodes: 2 }, async (sim, open) => {
    const c = await open();
    assert.equal(
      await c.request('get version\n\n'),
      'version\nid: 525315\nmajor: 8\nminor: 4\nbuild: 3\nstring: mysql-8.4.3 ndb-8.4.3\nmysql_major: 8\nmysql_minor: 4\nmysql_build: 3\n\n',
    );
    assert.equal(await c.request('get mgmd nodeid\n\n'), 'get mgmd nodeid reply\nnodeid:1\n\n');
    const other = await open(sim.mgmds[1]?.port);
    assert.equal(await other.request('get mgmd nodeid\n\n'), 'get mgmd nodeid reply\nnodeid:2\n\n');
    assert.equal(await c.request('check connection\n\n'), 'check connection reply\nresult: Ok\n\n');
    assert.equal(await c.request('get session id\n\n'), 'get session id reply\nid: 1\n\n');
    const second = await open();
    assert.equal(await second.request('get session id\n\n'), 'get session id reply\nid: 2\n\n');
    assert.equal(await c.request('get session\nid: 99\n\n'), 'get session reply\nid: 0\n\n');
    assert.equal(await c.request('purge stale sessions\n\n'), 'purge stale sessions reply\nresult: Ok\n\n');
    const list = await c.request('list sessions\n\n');
    assert.match(list, /^session: 1\nsession\.1\.m_stopSelf: 0\nsession\.1\.m_stop: 0\nsession\.1\.tls: 0\n/);
    assert.match(list, /session: 2\n/);
    const v = await open();
    assert.equal(
      await v.request('get version\n\n', 5000).then(() => v.request('get version\n\n')),
      await c.request('get version\n\n'),
    );
  });
});

test('end session replies one line with no empty line and keeps the session; bye closes it', async () => {
  await withSim({}, async (_sim, open) => {
    const c = await open();
    c.send('end session\n\n');
    assert.equal(await c.read((b) => (b.includes('\n') ? b.indexOf('\n') + 1 : null)), 'end session reply\n');
    assert.equal(await c.request('check connection\n\n'), 'check connection reply\nresult: Ok\n\n');
    c.send('bye\n\n');
    await c.waitClosed();
    assert.equal(c.pending, '');
  });
});

test('cluster log: get info clusterlog, set logfilter, cluster and reporting log levels', async () => {
  await withSim({}, async (_sim, open) => {
    const c = await open();
    assert.equal(await c.request('get info clusterlog\n\n'), 'clusterlog\nenabled: 1\ndebug: 0\ninfo: 1\nwarning: 1\nerror: 1\ncritical: 1\nalert: 1\n\n');
    assert.equal(await c.request('set logfilter\nlevel: 1\nenable: 1\n\n'), 'set logfilter reply\nresult: 1\n\n');
    assert.equal(await c.request('set logfilter\nlevel: 2\nenable: 0\n\n'), 'set logfilter reply\nresult: 0\n\n');
    assert.equal(await c.request('get info clusterlog\n\n'), 'clusterlog\nenabled: 1\ndebug: 1\ninfo: 0\nwarning: 1\nerror: 1\ncritical: 1\nalert: 1\n\n');
    const defaults =
      'get cluster loglevel\nstartup: 7\nshutdown: 7\nstatistics: 7\ncheckpoint: 7\nnoderestart: 7\nconnection: 8\ninfo: 7\nwarning: 7\nerror: 15\ncongestion: 7\ndebug: 7\nbackup: 15\nschema: 7\n\n';
    assert.equal(await c.request('get cluster loglevel\n\n'), defaults);
    assert.equal(await c.request('set cluster loglevel\nnode: 0\ncategory: 252\nlevel: 8\n\n'), 'set cluster loglevel reply\nresult: Ok\n\n');
    assert.equal(await c.request('get cluster loglevel\n\n'), defaults.replace('statistics: 7', 'statistics: 8'));
    assert.equal(await c.request('set cluster loglevel\nnode: 0\ncategory: 252\nlevel: 16\n\n'), 'set cluster loglevel reply\nresult: Invalid loglevel 16\n\n');
    assert.equal(await c.request('set cluster loglevel\nnode: 0\ncategory: 270\nlevel: 1\n\n'), 'set cluster loglevel reply\nresult: Invalid category 20\n\n');
    // The level prints as %d: -1 arrives as 4294967295 (spec §1.2) and is printed back as -1.
    assert.equal(await c.request('set cluster loglevel\nnode: 0\ncategory: 252\nlevel: -1\n\n'), 'set cluster loglevel reply\nresult: Invalid loglevel -1\n\n');
    assert.equal(await c.request('set loglevel\nnode: 2\ncategory: 252\nlevel: 9\n\n'), 'set loglevel reply\nresult: Ok\n\n');
    assert.equal(await c.request('set loglevel\nnode: 2\ncategory: 252\nlevel: 99\n\n'), 'set loglevel reply\nresult: Invalid loglevel: \n\n');
    // §4.9 gives set loglevel only the level error: a category outside 250..262 is not refused.
    assert.equal(await c.request('set loglevel\nnode: 2\ncategory: 270\nlevel: 9\n\n'), 'set loglevel reply\nresult: Ok\n\n');
    // Level 7 is ALL (§14.1): it switches every flag, "enabled" included.
    assert.equal(await c.request('set logfilter\nlevel: 7\nenable: 0\n\n'), 'set logfilter reply\nresult: 0\n\n');
    assert.equal(await c.request('get info clusterlog\n\n'), 'clusterlog\nenabled: 0\ndebug: 0\ninfo: 0\nwarning: 0\nerror: 0\ncritical: 0\nalert: 0\n\n');
    assert.equal(await c.request('set logfilter\nlevel: 7\nenable: -1\n\n'), 'set logfilter reply\nresult: 1\n\n');
    assert.equal(await c.request('get info clusterlog\n\n'), 'clusterlog\nenabled: 1\ndebug: 1\ninfo: 1\nwarning: 1\nerror: 1\ncritical: 1\nalert: 1\n\n');
  });
});

test('dump events type 50: two MemoryUsage records per connected data node, inline', async () => {
  await withSim({}, async (sim, open) => {
    const c = await open();
    assert.equal(await c.request('dump events\ntype: 50\nnodes: 3\n\n'), 'dump events reply\nresult: Ok\nevents: 2\n\n');
    const first = await c.readReply();
    const second = await c.readReply();
    assert.match(first, /^log event reply\ntype=50\ntime=0\nsource_nodeid=3\ngth=0\npage_size_bytes=32768\npages_used=\d+\npages_total=65536\nblock=249\n\n$/);
    assert.match(second, /^log event reply\ntype=50\ntime=0\nsource_nodeid=3\ngth=0\npage_size_bytes=8192\npages_used=\d+\npages_total=8192\nblock=248\n\n$/);
    assert.equal(await c.request('dump events\ntype: 50\n\n'), 'dump events reply\nresult: Ok\nevents: 4\n\n');
    for (let i = 0; i < 4; i++) assert.match(await c.readReply(), /^log event reply\ntype=50\n/);
    sim.model.failNode(3);
    assert.equal(await c.request('dump events\ntype: 50\n\n'), 'dump events reply\nresult: Ok\nevents: 2\n\n');
    await c.readReply();
    await c.readReply();
    assert.equal(await c.request('dump events\ntype: 62\n\n'), 'dump events reply\nresult: Ok\nevents: 0\n\n');
    assert.equal(await c.request('dump events\ntype: 7\n\n'), 'dump events reply\nresult: ndb_logevent_type 7 not supported\n\n');
    // Ids that are not connected data nodes are dropped without a refusal (§14.5): 9 is unused, 3 down.
    assert.equal(await c.request('dump events\ntype: 50\nnodes: 2,3,9\n\n'), 'dump events reply\nresult: Ok\nevents: 2\n\n');
    await c.readReply();
    await c.readReply();
    assert.equal(c.pending, '');
  });
});

test('get config: Content-Length counts the base64 text with its LFs, one LF follows, no empty line', async () => {
  await withSim({}, async (_sim, open) => {
    const c = await open();
    const header = await c.request('get config_v2\nversion: 525315\nnodetype: 1\nfrom_node: 0\n\n');
    const m = /^get config reply\nresult: Ok\nContent-Length: (\d+)\nContent-Type: ndbconfig\/octet-stream\nContent-Transfer-Encoding: base64\n\n$/.exec(header);
    assert.ok(m, header);
    const body = await c.readExactly(Number(m[1]) + 1);
    assert.ok(body.endsWith('\n'));
    assert.ok(body.slice(0, -1).split('\n').slice(0, -1).every((line) => line.length === 76));
    assert.equal(Buffer.from(body.replace(/\n/g, ''), 'base64').subarray(0, 8).toString('latin1'), 'NDBCONF2');
    assert.equal(await c.request('check connection\n\n'), 'check connection reply\nresult: Ok\n\n');
    assert.equal(await c.request('get config\nversion: 0\nfrom_node: 1000\n\n'), 'get config reply\nresult: Nodeid 1000 is greater than max nodeid 255. \n\n');
  });
});

test('commands a monitor never sends get a refusal with their own header', async () => {
  await withSim({}, async (_sim, open) => {
    const c = await open();
    assert.equal(
      await c.request('insert error\nnode: 2\nerror: 1\n\n'),
      'insert error reply\nresult: insert error is not supported by the ndbtop simulator\n\n',
    );
    assert.equal(await c.request('start tls\n\n'), 'start tls reply\nresult: Failed\n\n');
    c.send('transporter connect\n\n');
    await c.waitClosed();
  });
});

test('a large cluster: 144 data nodes in 255 node ids, get status lists every one', async () => {
  await withSim({ dataNodes: 144, replicas: 4, mgmNodes: 2, apiNodes: 109, connectedApiNodes: 50 }, async (_sim, open) => {
    const c = await open();
    const reply = await c.request('get status\n\n');
    assert.match(reply, /^node status\nnodes: 255\n/);
    const map = statusMap(reply);
    assert.equal(map.get('node.144.type'), 'NDB');
    assert.equal(map.get('node.144.node_group'), '35');
    assert.equal(map.get('node.144.address'), '10.0.0.154');
    assert.equal(map.get('node.146.type'), 'MGM');
    assert.equal(map.get('node.255.status'), 'NO_CONTACT');
    assert.equal(map.get('node.255.address'), '0.0.0.0');
    assert.equal(map.get('node.147.address'), '10.0.1.1');
    assert.ok(reply.length > 40_000);
  });
});

test('an older server does not know the newer commands and fields: set clientversion before 8.0.20, is_single_user before 8.0.22, start tls before 8.3', async () => {
  await withSim({ version: '8.0.19' }, async (_sim, open) => {
    const c = await open();
    assert.match(await c.request('get version\n\n'), /^version\nid: 524307\nmajor: 8\nminor: 0\nbuild: 19\n/);
    // Spec §4.2, and one more Unknown command per argument line (§1.4).
    c.send(CLIENT_8_4_3);
    assert.equal(await c.readReply(), "result: Unknown command, 'set clientversion'\n\n");
    assert.equal(await c.readReply(), "result: Unknown command, 'major: 8'\n\n");
    assert.equal(await c.readReply(), "result: Unknown command, 'minor: 4'\n\n");
    assert.equal(await c.readReply(), "result: Unknown command, 'build: 3'\n\n");
    assert.doesNotMatch(await c.request('get status\n\n'), /is_single_user/);
  });
  await withSim({ version: '8.0.21' }, async (_sim, open) => {
    const c = await open();
    assert.equal(await c.request(CLIENT_8_4_3), 'set clientversion reply\nresult: Ok\n\n');
    assert.doesNotMatch(await c.request('get status\n\n'), /is_single_user/);
  });
  await withSim({ version: '8.2.0' }, async (_sim, open) => {
    const c = await open();
    assert.equal(await c.request(CLIENT_8_4_3), 'set clientversion reply\nresult: Ok\n\n');
    assert.equal(await c.request('start tls\n\n'), "result: Unknown command, 'start tls'\n\n");
  });
  await withSim({ version: '8.3.0' }, async (_sim, open) => {
    const c = await open();
    assert.equal(await c.request('start tls\n\n'), 'start tls reply\nresult: Failed\n\n');
  });
});

test('stop and restart read `node` as a space-separated list (spec §4.13): `2,3` is node 2 alone', async () => {
  await withSim({ speed: 20 }, async (_sim, open) => {
    const c = await open();
    // Nodes 2 and 3 form the one node group: stopping both would be refused with 5028.
    assert.equal(await c.request('stop v2\nnode: 2,3\nabort: 0\n\n'), 'stop reply\nresult: Ok\nstopped: 1\ndisconnect: 0\n\n');
    const status = statusMap(await c.request('get status\n\n'));
    assert.equal(status.get('node.2.status'), 'NO_CONTACT');
    assert.equal(status.get('node.3.status'), 'STARTED');
  });
});
