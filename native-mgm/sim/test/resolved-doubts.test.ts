import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { test } from 'node:test';
import { parseConfigIni } from '../../config/index.js';
import { withSim } from './raw-socket.js';

/** The commands whose answers spec §14 settled, as golden bytes off a raw socket. */

const ALL_ON = 'clusterlog\nenabled: 1\ndebug: 1\ninfo: 1\nwarning: 1\nerror: 1\ncritical: 1\nalert: 1\n\n';
const logfilter = (level: number, enable: number): string => `set logfilter\nlevel: ${level}\nenable: ${enable}\n\n`;
const filterReply = (on: 0 | 1): string => `set logfilter reply\nresult: ${on}\n\n`;

test('set logfilter level 7 is a switch: its own flag counts in its state, not just 1..6 (§14.1)', async () => {
  await withSim({}, async (_sim, open) => {
    const c = await open();
    // Debug on makes 1..6 all on, yet ALL's own flag is still off (defaults: §14.1), so ALL reads as off ...
    assert.equal(await c.request(logfilter(1, 1)), filterReply(1));
    // ... and toggling it switches everything on, rather than off.
    assert.equal(await c.request(logfilter(7, -1)), filterReply(1));
    assert.equal(await c.request('get info clusterlog\n\n'), ALL_ON);
    assert.equal(await c.request(logfilter(7, -1)), filterReply(0));
    assert.equal(await c.request('get info clusterlog\n\n'), ALL_ON.replace(/: 1/g, ': 0'));
    // Turning 1..6 on one by one leaves ALL's flag off, so a toggle of ALL again switches everything on.
    for (let level = 1; level <= 6; level++) assert.equal(await c.request(logfilter(level, 1)), filterReply(1));
    assert.equal(await c.request('get info clusterlog\n\n'), ALL_ON.replace('enabled: 1', 'enabled: 0'));
    assert.equal(await c.request(logfilter(7, -1)), filterReply(1));
    assert.equal(await c.request('get info clusterlog\n\n'), ALL_ON);
  });
});

test('dump events: node lists read like parse_mask; refusals only for unparsable lists and ids 0 or over 144 (§14.5)', async () => {
  await withSim({}, async (_sim, open) => {
    const c = await open();
    const refused = (text: string): string => `dump events reply\nresult: ${text}\n\n`;
    const dump = (nodes: string): Promise<string> => c.request(`dump events\ntype: 50\nnodes: ${nodes}\n\n`);
    for (const nodes of ['0', '145', '2,,3', 'x', '2-x', '1-200']) assert.equal(await dump(nodes), refused(`invalid nodes: '${nodes}'`), nodes);
    // `%u`: -1 arrives as 4294967295 and prints so.
    assert.equal(await c.request('dump events\ntype: -1\n\n'), refused('ndb_logevent_type 4294967295 not supported'));
    // The management node 1 and the API slot 4 are dropped silently; a range in either order; blanks around items.
    assert.equal(await dump('1, 4'), 'dump events reply\nresult: Ok\nevents: 0\n\n');
    const records = async (nodes: string): Promise<string[]> => {
      const head = /^dump events reply\nresult: Ok\nevents: (\d+)\n\n$/.exec(await dump(nodes));
      assert.ok(head, nodes);
      const out: string[] = [];
      for (let i = 0; i < Number(head[1]); i++) out.push(/source_nodeid=(\d+)/.exec(await c.readReply())?.[1] ?? '');
      return out;
    };
    assert.deepEqual(await records('3-1'), ['2', '2', '3', '3']);
    assert.deepEqual(await records('1,3 ,7'), ['3', '3']);
    // A blank list asks every data node, as no list does.
    assert.deepEqual(await records(' '), ['2', '2', '3', '3']);
    assert.equal(c.pending, '');
  });
});

test('text goes out as the UTF-8 bytes it was given: a host name from config.ini in get status (issue 24 item 6)', async () => {
  const ini = '[ndbd default]\nNoOfReplicas=1\n[ndb_mgmd]\nNodeId=1\nHostName=127.0.0.1\n[ndbd]\nNodeId=2\nHostName=hôst-2.exämple\n[mysqld]\nNodeId=3\n';
  await withSim({ config: parseConfigIni(ini) }, async (sim) => {
    const socket = connect({ port: sim.mgmds[0]?.port ?? 0, host: '127.0.0.1' });
    const received: Buffer[] = [];
    socket.on('data', (d: Buffer) => received.push(d));
    socket.write('get status\ntypes: NDB\n\n');
    const line = Buffer.from('node.2.address: h\xc3\xb4st-2.ex\xc3\xa4mple\n', 'latin1');
    const deadline = Date.now() + 10_000;
    while (!Buffer.concat(received).includes(Buffer.from('\n\n')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    socket.destroy();
    assert.ok(Buffer.concat(received).includes(line), Buffer.concat(received).toString('latin1'));
  });
});
