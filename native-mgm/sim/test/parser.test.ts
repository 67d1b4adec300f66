import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { test } from 'node:test';
import { withSim } from './raw-socket.js';

const OK_CHECK = 'check connection reply\nresult: Ok\n\n';

test('parser errors have no header and the exact texts of spec §1.4', async () => {
  await withSim({}, async (_sim, open) => {
    const c = await open();
    assert.equal(await c.request('get statuss\n\n'), "result: Unknown command, 'get statuss'\n\n");
    assert.equal(await c.request('get status\nnodes: 1\n\n'), "result: Unknown argument, 'nodes'\n\n");
    assert.equal(await c.request('start\nnode: abc\n\n'), "result: Type mismatch, 'node'\n\n");
    // `Invalid arg. format` is never sent: a line without separator is taken whole as a name (§14.4).
    assert.equal(await c.request('get status\ntypes NDB\n\n'), "result: Unknown argument, 'types NDB'\n\n");
    c.send('dump events\ntype: 50\ntype: 50\nnodes: 2\n\n');
    assert.equal(await c.readReply(), "result: Argument given twice, 'type'\n\n");
    // The line after the bad one is then read as a command of its own.
    assert.equal(await c.readReply(), "result: Unknown command, 'nodes: 2'\n\n");
    assert.equal(await c.request('check connection\n\n'), OK_CHECK);
  });
});

test('Missing arg. spans two lines: the token is a bare newline', async () => {
  await withSim({}, async (_sim, open) => {
    const c = await open();
    c.send('listen event\nparsable: 1\n\n');
    assert.equal(await c.readExactly("result: Missing arg., '\n'\n\n".length), "result: Missing arg., '\n'\n\n");
    c.send('stop v2\nnode: 3\n\n');
    assert.equal(await c.readExactly("result: Missing arg., '\n'\n\n".length), "result: Missing arg., '\n'\n\n");
    assert.equal(await c.request('check connection\n\n'), OK_CHECK);
    assert.equal(c.pending, '');
  });
});

test('one Unknown command per leftover argument line', async () => {
  await withSim({}, async (_sim, open) => {
    const c = await open();
    c.send('get statistics\nnode: 2\nkind: all\n\ncheck connection\n\n');
    assert.equal(await c.readReply(), "result: Unknown command, 'get statistics'\n\n");
    assert.equal(await c.readReply(), "result: Unknown command, 'node: 2'\n\n");
    assert.equal(await c.readReply(), "result: Unknown command, 'kind: all'\n\n");
    assert.equal(await c.readReply(), OK_CHECK);
  });
});

test('any argument order, `:` or `=`, spaces, quotes and CRLF line ends are accepted', async () => {
  await withSim({}, async (_sim, open) => {
    const c = await open();
    const expected = 'set clientversion reply\nresult: Ok\n\n';
    assert.equal(await c.request('set clientversion\nbuild: 3\nmajor: 8\nminor: 4\n\n'), expected);
    assert.equal(await c.request('set clientversion\nmajor=8\nminor:"4"\nbuild = 3\n\n'), expected);
    // A bare CRLF would not end the request (§14.3), so the empty line is LF only.
    assert.equal(await c.request('set clientversion\r\n\tmajor\t:\t8 \r\nminor:4\r\nbuild:3\r\n\n'), expected);
    assert.equal(await c.request('"check connection"\n\n'), OK_CHECK);
    assert.equal(await c.request('  check connection \t\n\n'), OK_CHECK);
    // mgmapi's own formatting: integers `name: value`, strings `name:"value"`.
    const status = await c.request('get status\ntypes:"MGM"\n\n');
    assert.match(status, /^node status\nnodes: 1\nnode\.1\.type: MGM\n/);
    assert.match(status, /node\.1\.is_single_user: 0\n\n$/);
  });
});

test('empty lines between requests are ignored and pipelined replies keep their order', async () => {
  await withSim({}, async (_sim, open) => {
    const c = await open();
    c.send('\n\n\ncheck connection\n\n\n\nget session id\n\nget mgmd nodeid\n\n');
    assert.equal(await c.readReply(), OK_CHECK);
    assert.equal(await c.readReply(), 'get session id reply\nid: 1\n\n');
    assert.equal(await c.readReply(), 'get mgmd nodeid reply\nnodeid:1\n\n');
    assert.equal(c.pending, '');
  });
});

test('integer arguments are read like sscanf %u: trailing junk ignored, minus wraps', async () => {
  await withSim({}, async (_sim, open) => {
    const c = await open();
    const session1 = 'get session reply\nid: 1\nm_stopSelf: 0\nm_stop: 0\ntls: 0\nparser_buffer_len: 0\nparser_status: 0\n\n';
    assert.equal(await c.request('get session\nid: 1abc\n\n'), session1);
    // The quotes keep the space inside them past the trimming, and %u skips it.
    assert.equal(await c.request('get session\nid:" 1"\n\n'), session1);
    // -1 arrives as 4294967295, which set logfilter takes back as -1: toggle (debug was off).
    assert.equal(await c.request('set logfilter\nlevel: 1\nenable: -1\n\n'), 'set logfilter reply\nresult: 1\n\n');
  });
});

test('a command line longer than 510 characters ends the session without a reply', async () => {
  await withSim({}, async (_sim, open) => {
    const ok = await open();
    assert.equal(await ok.request(`get status\ntypes: NDB${' '.repeat(510 - 'types: NDB'.length)}\n\n`), await ok.request('get status\ntypes: NDB\n\n'));
    const c = await open();
    c.send(`get status${' '.repeat(600)}\n\n`);
    await c.waitClosed();
    assert.equal(c.pending, '');
    // 512 bytes without a line feed are refused at once, whether or not one follows.
    const d = await open();
    d.send('x'.repeat(512));
    await d.waitClosed();
    assert.equal(d.pending, '');
    // Lines are read one by one: requests before the over-long line in the same chunk are still answered.
    const e = await open();
    e.send(`check connection\n\n${'x'.repeat(600)}\ncheck connection\n\n`);
    await e.waitClosed();
    assert.equal(e.pending, 'check connection reply\nresult: Ok\n\n');
  });
});

test('set ports: the bulk lines after the request, up to another empty line, are read with it (spec §4.22)', async () => {
  await withSim({}, async (_sim, open) => {
    const c = await open();
    c.send('set ports\nnode: 2\nnum_ports: 2\n\n3=50001\n4=50002\n\ncheck connection\n\n');
    assert.match(await c.readReply(), /^set ports reply\nresult: [^\n]*\n\n$/);
    // Not an Unknown command reply per bulk line.
    assert.equal(await c.readReply(), OK_CHECK);
    assert.equal(c.pending, '');
  });
});

test('set config: the body (Content-Length bytes and one LF) is read, not parsed as commands (spec §4.0, §1.6)', async () => {
  await withSim({}, async (_sim, open) => {
    const c = await open();
    // A body as get config sends it (LF every 76 characters), and one with a line far over the 510-byte line limit.
    const wrapped = `${'QUJD'.repeat(19)}\n${'QUJD'.repeat(19)}\nQUJD`;
    const long = 'QUJD'.repeat(300);
    for (const body of [wrapped, long]) {
      c.send(
        `set config_v2\nContent-Length: ${body.length}\nContent-Type: ndbconfig/octet-stream\nContent-Transfer-Encoding: base64\n\n${body}\ncheck connection\n\n`,
      );
      assert.match(await c.readReply(), /^set config reply\nresult: [^\n]*\n\n$/);
      assert.equal(await c.readReply(), OK_CHECK);
    }
    assert.equal(c.pending, '');
    assert.equal(c.isClosed, false);
  });
});

test('a client that shuts down its sending side still gets every reply, then the session ends', async () => {
  // Byte-wise writes take many turns, so replies are still being written when the client's FIN arrives.
  await withSim({ writeMode: 'bytewise' }, async (_sim, open) => {
    const c = await open();
    c.socket.end('get mgmd nodeid\n\ncheck connection\n\n');
    await c.waitClosed();
    assert.equal(c.pending, `get mgmd nodeid reply\nnodeid:1\n\n${OK_CHECK}`);
  });
});

test('a parser error echoes its token byte for byte, also bytes that are not UTF-8', async () => {
  await withSim({}, async (sim) => {
    const socket = connect({ port: sim.mgmds[0]?.port ?? 0, host: '127.0.0.1' });
    const received: Buffer[] = [];
    socket.on('data', (d: Buffer) => received.push(d));
    const bad = Buffer.from([0x67, 0xff, 0xfe, 0x20, 0xc3, 0xa9, 0x80]);
    socket.write(Buffer.concat([bad, Buffer.from('\n\nget status\n'), bad, Buffer.from(': 1\n\ncheck connection\n\n')]));
    const expected = Buffer.concat([
      Buffer.from("result: Unknown command, '"),
      bad,
      Buffer.from("'\n\nresult: Unknown argument, '"),
      bad,
      Buffer.from(`'\n\n${OK_CHECK}`),
    ]);
    const deadline = Date.now() + 10_000;
    while (Buffer.concat(received).length < expected.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    socket.destroy();
    assert.deepEqual(Buffer.concat(received), expected);
  });
});

test('requests split over many writes, one byte each, CRLF split between writes, are answered as if sent whole', async () => {
  await withSim({}, async (_sim, open) => {
    const c = await open();
    c.socket.setNoDelay(true);
    const text = 'get mgmd nodeid\r\n\nset clientversion\r\nmajor: 8\r\nminor: 4\r\nbuild: 3\r\n\nget statuss\n\ncheck connection\n\n';
    for (const byte of text) {
      c.send(byte);
      await new Promise((r) => setImmediate(r));
    }
    assert.equal(await c.readReply(), 'get mgmd nodeid reply\nnodeid:1\n\n');
    assert.equal(await c.readReply(), 'set clientversion reply\nresult: Ok\n\n');
    assert.equal(await c.readReply(), "result: Unknown command, 'get statuss'\n\n");
    assert.equal(await c.readReply(), OK_CHECK);
    assert.equal(c.pending, '');
  });
});
