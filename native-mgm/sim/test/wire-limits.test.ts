import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withSim } from './raw-socket.js';

/**
 * The simulator's line reading against the server's, byte for byte (spec §14.2, §14.3, §14.4): golden bytes read
 * off a raw socket, never through the client's parser.
 */

const OK_CHECK = 'check connection reply\nresult: Ok\n\n';
const NODE_ID = 'get mgmd nodeid reply\nnodeid:1\n\n';
/** Long enough for a loaded machine to deliver a write, short enough for a test. */
const LINE_TIMEOUT_MS = 400;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

test('a line is 510 characters and LF, or 510 and CRLF; 511 and LF is too long (§14.3)', async () => {
  await withSim({}, async (_sim, open) => {
    const c = await open();
    // A command line of 510 characters: blanks are trimmed after the read, so it is `check connection`.
    const padded = `check connection${' '.repeat(510 - 'check connection'.length)}`;
    assert.equal(await c.request(`${padded}\n\n`), OK_CHECK);
    assert.equal(await c.request(`${padded}\r\n\n`), OK_CHECK);
    // 511 characters and LF, 512 bytes with no CR before the LF: the reader's −1 on a command line ends the session.
    const d = await open();
    d.send(`check connection\n\n${padded} \n\ncheck connection\n\n`);
    await d.waitClosed();
    assert.equal(d.pending, OK_CHECK);
  });
});

test('an over-long argument line cuts the request: the command runs, the bytes past 512 are a new command (§14.3)', async () => {
  await withSim({}, async (_sim, open) => {
    const c = await open();
    // 512 bytes are consumed; `get mgmd nodeid` takes no arguments, so it runs with none.
    const long = `x: ${'y'.repeat(509)}tail`;
    c.send(`get mgmd nodeid\n${long}\n\ncheck connection\n\n`);
    assert.equal(await c.readReply(), NODE_ID);
    assert.equal(await c.readReply(), "result: Unknown command, 'tail'\n\n");
    assert.equal(await c.readReply(), OK_CHECK);
    // Lacking a mandatory argument it answers Missing arg. with the null token.
    c.send(`stop v2\n${long}\n\ncheck connection\n\n`);
    assert.equal(await c.readReply(), "result: Missing arg., '<NULL>'\n\n");
    assert.equal(await c.readReply(), "result: Unknown command, 'tail'\n\n");
    assert.equal(await c.readReply(), OK_CHECK);
    assert.equal(c.pending, '');
    assert.equal(c.isClosed, false);
  });
});

test('a bare CRLF is a line holding a CR, not an empty line, on a plain socket (§14.3)', async () => {
  await withSim({}, async (_sim, open) => {
    const c = await open();
    // As a request's end it is an argument line: Unknown argument, and the request is lost.
    assert.equal(await c.request('get mgmd nodeid\r\n\r\n'), "result: Unknown argument, '\r'\n\n");
    // Between requests it is an unknown command.
    c.send('\r\ncheck connection\n\n');
    assert.equal(await c.readReply(), "result: Unknown command, '\r'\n\n");
    assert.equal(await c.readReply(), OK_CHECK);
    // With something before it the CR is dropped: `name: value\r\n` and `command\r\n` are as with LF.
    assert.equal(await c.request('get mgmd nodeid\r\n\n'), NODE_ID);
    assert.equal(await c.request('set clientversion\r\nmajor: 8\r\nminor: 4\r\nbuild: 3\r\n\n'), 'set clientversion reply\nresult: Ok\n\n');
    assert.equal(c.pending, '');
  });
});

test('parser errors: a line without separator is an Unknown argument; a string argument twice closes (§14.4)', async () => {
  await withSim({}, async (_sim, open) => {
    const c = await open();
    assert.equal(await c.request('get status\ntypes NDB\n\n'), "result: Unknown argument, 'types NDB'\n\n");
    assert.equal(await c.request('check connection\n\n'), OK_CHECK);
    // An integer argument twice is refused by name; a string one crashes the server, so the session ends.
    c.send('get session\nid: 1\nid: 1\n\n');
    assert.equal(await c.readReply(), "result: Argument given twice, 'id'\n\n");
    c.send('get status\ntypes: NDB\ntypes: API\n\ncheck connection\n\n');
    await c.waitClosed();
    assert.equal(c.pending, '');
  });
});

test('the 30 s per line (shortened): silence is nothing, a half command line closes, a half request runs (§14.2)', async () => {
  await withSim({ lineTimeoutMs: LINE_TIMEOUT_MS }, async (_sim, open) => {
    // No byte where a command is expected: nothing is sent and the session stays.
    const idle = await open();
    await sleep(LINE_TIMEOUT_MS * 2.5);
    assert.equal(await idle.request('check connection\n\n'), OK_CHECK);
    // Half a command line when the time is up: closed without a reply.
    const half = await open();
    half.send('check conn');
    await half.waitClosed();
    assert.equal(half.pending, '');
    // Half an argument line: the command runs with what it has and the half line is lost.
    const arg = await open();
    arg.send('get mgmd nodeid\nfoo: ba');
    assert.equal(await arg.readReply(), NODE_ID);
    arg.send('r\n\ncheck connection\n\n');
    // The rest of that line arrives after its time: a command line of its own.
    assert.equal(await arg.readReply(), "result: Unknown command, 'r'\n\n");
    assert.equal(await arg.readReply(), OK_CHECK);
    // Every argument line sent, no empty line: the command runs late; lacking a mandatory argument, the null token.
    arg.send('stop v2\n');
    assert.equal(await arg.readReply(), "result: Missing arg., '<NULL>'\n\n");
    arg.send('set clientversion\nmajor: 8\nminor: 4\nbuild: 3\n');
    assert.equal(await arg.readReply(), 'set clientversion reply\nresult: Ok\n\n');
    assert.equal(arg.isClosed, false);
  });
});
