import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { test } from 'node:test';
import { collect, indexOf, listen } from './event-stream.js';
import { eventually, statusMap, withSim } from './raw-socket.js';

/** Resolves 'refused' or 'accepted' for a fresh TCP connect. */
function tryConnect(port: number): Promise<'refused' | 'accepted'> {
  return new Promise((resolve) => {
    const s = connect({ port, host: '127.0.0.1' }, () => {
      s.destroy();
      resolve('accepted');
    });
    s.on('error', () => resolve('refused'));
  });
}

test('a management server that stops closes its sockets and refuses; the other one sees it go and come back', async () => {
  await withSim({ mgmNodes: 2, speed: 20 }, async (sim, open) => {
    const [m1, m2] = sim.mgmds;
    assert.ok(m1 && m2);
    assert.equal(sim.connectstring, `127.0.0.1:${m1.port},127.0.0.1:${m2.port}`);
    const onFirst = await open(m1.port);
    const firstListener = await open(m1.port);
    await listen(firstListener, 'CONNECTION=8');
    const onSecond = await open(m2.port);
    const events = await open(m2.port);
    await listen(events, 'CONNECTION=8');
    await sim.stopMgmd(1);
    assert.equal(sim.mgmds[0]?.running, false);
    await onFirst.waitClosed();
    await firstListener.waitClosed();
    assert.equal(await tryConnect(m1.port), 'refused');
    const m = statusMap(await onSecond.request('get status\n\n'));
    assert.equal(m.get('node.1.status'), 'NO_CONTACT');
    assert.equal(m.get('node.1.address'), '');
    assert.equal(m.get('node.1.version'), '0');
    assert.equal(m.get('node.2.status'), 'CONNECTED');

    await sim.startMgmd(1);
    assert.equal(await tryConnect(m1.port), 'accepted');
    const back = await open(m1.port);
    assert.equal(await back.request('get session id\n\n'), 'get session id reply\nid: 2\n\n');
    assert.equal(statusMap(await onSecond.request('get status\n\n')).get('node.1.status'), 'CONNECTED');
    const records = await collect(events, (r) => indexOf(r, 0, 2, ['node', '1']) >= 0);
    assert.ok(indexOf(records, 1, 2, ['node', '1']) >= 0 && indexOf(records, 1, 2, ['node', '1']) < indexOf(records, 0, 2, ['node', '1']));
  });
});

test('restart of the management server a client talks to: disconnect: 1, then it comes back on the same port', async () => {
  await withSim({ mgmNodes: 2, speed: 20 }, async (sim, open) => {
    const port = sim.mgmds[0]?.port ?? 0;
    const c = await open(port);
    assert.equal(await c.request('restart node v2\nnode: 1\n\n'), 'restart reply\nresult: Ok\nrestarted: 1\ndisconnect: 1\n\n');
    await c.waitClosed();
    const other = await open(sim.mgmds[1]?.port);
    assert.equal(await other.request('restart node v2\nnode: 1\n\n'), 'restart reply\nresult: Ok\nrestarted: 1\ndisconnect: 0\n\n');
    await eventually(() => tryConnect(port), (r) => r === 'accepted');
    const again = await open(port);
    assert.equal(await again.request('get mgmd nodeid\n\n'), 'get mgmd nodeid reply\nnodeid:1\n\n');
  });
});

test('stop all with mgm in `stop` stops this server too', async () => {
  await withSim({ speed: 20 }, async (sim, open) => {
    const c = await open();
    assert.equal(await c.request('stop all\nabort: 1\nstop: mgm,db\n\n'), 'stop reply\nresult: Ok\nstopped: 3\ndisconnect: 1\n\n');
    await c.waitClosed();
    assert.equal(await tryConnect(sim.mgmds[0]?.port ?? 0), 'refused');
  });
});

test('fixed ports: a second simulator can take the port the first one had', async () => {
  await withSim({}, async (first) => {
    const port = first.mgmds[0]?.port ?? 0;
    await first.close();
    await withSim({ ports: [port] }, async (sim) => {
      assert.equal(sim.mgmds[0]?.port, port);
      assert.equal(await tryConnect(port), 'accepted');
    });
  });
});
