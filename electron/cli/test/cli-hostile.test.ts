import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Socket } from 'node:net';
import { SPEC_REPLIES } from '../../../native-mgm/test/fixtures/spec-transcripts.js';
import { ScriptedServer, mgmdScript, type ScriptedRequest } from '../../../native-mgm/client/test/scripted-server.js';
import { resolveToken } from '../../serve/transport/listen-options.js';
import { EXIT } from '../exit-codes.js';
import { escapedJson, visibleLine, visibleStrings, visibleText } from '../../contract/page-safe/outside-text.js';
import { runCli } from './run-cli.js';

// Issue 15 items 7 and 8, as a hostile management server and a careless script would meet them.

async function scripted(t: TestContext, script: Parameters<typeof ScriptedServer.start>[0]): Promise<ScriptedServer> {
  const server = await ScriptedServer.start(script);
  t.after(() => server.close());
  return server;
}

/** Any control character a terminal would act on (LF and TAB are layout). */
const hasControl = (text: string): boolean => [...text].some((c) => c !== '\n' && c !== '\t' && (c <= '\x1f' || (c >= '\x7f' && c <= '\x9f')));

const OSC_TITLE = '\x1b]0;pwned\x07';
const CSI_C1 = '\x9b2J';

// Three CLI processes; the --timeout given (a deadline from connecting to get status) is long because the scripted
// server stalls only after its reply and a starved machine can take more than the default 5 s for the four requests.
test('show prints no terminal escape a server put into node fields, in text or JSON', { timeout: 360_000 }, async (t) => {
  const evil = SPEC_REPLIES.getStatus.replace('node.2.address: 10.0.0.12', `node.2.address: 10.0.0.12${OSC_TITLE}${CSI_C1}`);
  // Text from the server is UTF-8 (spec §14, issue 24 item 6): the C1 CSI arrives as its UTF-8 encoding, and a lone
  // 0x9B byte (a single-byte CSI in latin1) is not UTF-8 at all and must not reach the terminal either.
  const server = await scripted(
    t,
    mgmdScript(1, (req, socket) => {
      if (req.command !== 'get status') return undefined;
      socket.write(Buffer.from(evil, 'utf8'));
      return { stall: true };
    }),
  );
  const text = await runCli(['show', '--timeout', '60000', '-c', `127.0.0.1:${server.port}`]);
  assert.equal(text.code, EXIT.OK, text.stderr);
  assert.ok(!hasControl(text.stdout), text.stdout);
  assert.match(text.stdout, /10\.0\.0\.12\\x1b\]0;pwned\\x07\\x9b2J/);
  const lone = await scripted(
    t,
    mgmdScript(1, (req, socket) => {
      if (req.command !== 'get status') return undefined;
      socket.write(Buffer.from(evil, 'latin1'));
      return { stall: true };
    }),
  );
  const raw = await runCli(['show', '--timeout', '60000', '-c', `127.0.0.1:${lone.port}`]);
  assert.equal(raw.code, EXIT.OK, raw.stderr);
  assert.ok(!hasControl(raw.stdout) && !raw.stdout.includes('\x9b'), raw.stdout);
  assert.match(raw.stdout, /10\.0\.0\.12\\x1b\]0;pwned\\x07\ufffd2J/);
  const json = await runCli(['show', '--json', '--timeout', '60000', '-c', `127.0.0.1:${server.port}`]);
  assert.ok(!hasControl(json.stdout), json.stdout);
  const parsed = JSON.parse(json.stdout) as { nodes: Array<{ nodeId: number; address: string }> };
  assert.equal(parsed.nodes.find((n) => n.nodeId === 2)?.address, `10.0.0.12${OSC_TITLE}${CSI_C1}`, 'JSON keeps the data exactly');
});

test('error messages quoting server bytes reach stderr without escapes', { timeout: 180_000 }, async (t) => {
  const server = await scripted(t, (_req, socket) => {
    // JSON.stringify in the error's detail escapes C0 controls but not the single-byte CSI.
    socket.write(Buffer.from(`${CSI_C1}${OSC_TITLE}garbage\n\n`, 'latin1'));
    return { stall: true };
  });
  const r = await runCli(['show', '-c', `127.0.0.1:${server.port}`]);
  assert.equal(r.code, EXIT.PROTOCOL);
  assert.ok(!hasControl(r.stderr), r.stderr);
});

test('the terminal helpers keep newlines and tabs and escape every other control character', () => {
  assert.equal(visibleText('a\tb\nc\x1b[31m\x00\x7f\x9b'), 'a\tb\nc\\x1b[31m\\x00\\x7f\\x9b');
  assert.equal(escapedJson({ s: '\x1b\x85' }), '{"s":"\\u001b\\u0085"}');
  assert.deepEqual(JSON.parse(escapedJson({ s: '\x1b\x85é' })), { s: '\x1b\x85é' });
  assert.equal(escapedJson(['\u2028\x7f']), '["\\u2028\\u007f"]');
  assert.equal(visibleLine('a\tb\nc\u2029'), 'a\\x09b\\x0ac\\u2029');
  // Bidi controls, which reorder what follows them, shown at four hex digits; the characters around them untouched.
  assert.equal(visibleText('\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u2065\u202f'), '\\u061c\\u200e\\u200f\\u202a\\u202b\\u202c\\u202d\\u202e\\u2066\\u2067\\u2068\\u2069\u2065\u202f');
  assert.equal(escapedJson('\u202eKO'), '"\\u202eKO"');
  // The page's door: a clean message is the same object; a dirty one is copied where it differs, keys included.
  const clean = { a: [1, 'x', { b: null }], c: 'é' };
  assert.equal(visibleStrings(clean), clean);
  const dirty = { a: [1, 'x\x9b'], keep: clean, ['k\x1b']: 'v' };
  const shown = visibleStrings(dirty);
  assert.deepEqual(shown, { a: [1, 'x\\x9b'], keep: clean, 'k\\x1b': 'v' });
  assert.equal(shown.keep, clean);
  assert.deepEqual(dirty.a, [1, 'x\x9b'], 'the message itself is left as it came');
});

// Each reply comes just inside --timeout; the old per-request timeout let `show --timeout 5000` take 21 s.
test('--timeout is one deadline for the whole command, not one per request', { timeout: 180_000 }, async (t) => {
  const delayed = (reply: string) => (_req: ScriptedRequest, socket: Socket) => {
    setTimeout(() => socket.writable && socket.write(reply), 450);
    return { stall: true } as const;
  };
  const answers: Record<string, string> = {
    'get version': SPEC_REPLIES.getVersion,
    'set clientversion': SPEC_REPLIES.setClientVersion,
    'get mgmd nodeid': 'get mgmd nodeid reply\nnodeid:1\n\n',
    'get status': SPEC_REPLIES.getStatus,
  };
  const server = await scripted(t, (req, socket) => {
    const reply = answers[req.command];
    return reply === undefined ? SPEC_REPLIES.endSession : delayed(reply)(req, socket);
  });
  const r = await runCli(['show', '--timeout', '1000', '-c', `127.0.0.1:${server.port}`]);
  assert.equal(r.code, EXIT.TIMEOUT, `exit ${r.code}; stdout ${r.stdout}; stderr ${r.stderr}`);
  assert.match(r.stderr, /ndbtop show timed out after 1000 ms/);
});

test('the serve token comes from --token, else --token-file, else NDBTOP_TOKEN', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'ndbtop-token-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'token');
  await writeFile(file, 's3cret-from-file\n');
  assert.equal(resolveToken({ port: 0, host: '::1', tokenFile: file }, {}), 's3cret-from-file');
  assert.equal(resolveToken({ port: 0, host: '::1' }, { NDBTOP_TOKEN: 's3cret-from-env' }), 's3cret-from-env');
  assert.equal(resolveToken({ port: 0, host: '::1', token: 'explicit-token' }, { NDBTOP_TOKEN: 'x' }), 'explicit-token');
  assert.equal(resolveToken({ port: 0, host: '::1' }, {}), undefined);
  await writeFile(file, '\n');
  assert.throws(() => resolveToken({ port: 0, host: '::1', tokenFile: file }, {}), /empty/);
  assert.throws(() => resolveToken({ port: 0, host: '::1', tokenFile: join(dir, 'missing') }, {}), /ENOENT/);
  // The real CLI: a non-loopback bind is accepted with the token from the environment alone.
  const r = await runCli(['serve', '--host', '0.0.0.0', '--port', '0'], { NDBTOP_TOKEN: 'short' });
  assert.equal(r.code, EXIT.USAGE);
  assert.match(r.stderr, /at least 8 characters/, 'the environment token was taken (and checked)');
});
