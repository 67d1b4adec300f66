import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { CLI_ARGS } from '../../cli/test/run-cli.js';
import { ClusterSnapshotSchema } from '../../contract/schemas/snapshot.js';
import { httpGet, waitFor } from './helpers.js';

interface Run {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  exit: Promise<number | null>;
}

function run(args: string[], env: NodeJS.ProcessEnv = {}): Run {
  const child = spawn(process.execPath, [...CLI_ARGS, ...args], { env: { ...process.env, NDB_CONNECTSTRING: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (err += c.toString()));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, stdout: () => out, stderr: () => err, exit };
}

function listeningPort(r: Run): Promise<number> {
  return waitFor(() => {
    const m = /listening on http:\/\/127\.0\.0\.1:(\d+)\//.exec(r.stdout());
    return m ? Number(m[1]) : undefined;
  }, `the URL on stdout (so far: ${JSON.stringify(r.stdout())} ${JSON.stringify(r.stderr())})`, 60_000);
}

test('serve on a non-loopback address without --token exits 2 with a clear message, before starting anything', async () => {
  const r = run(['serve', '--host', '0.0.0.0', '--port', '0']);
  assert.equal(await r.exit, 2);
  assert.match(r.stderr(), /refusing to serve on 0\.0\.0\.0 without --token/);
  assert.equal(r.stdout(), '');
});

test('serve without -c runs on the simulator, prints the URL, records, and shuts down on SIGTERM; replay serves the recording', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ndbtop-cli-'));
  const recording = join(dir, 'rec.jsonl');
  try {
    const serve = run(['serve', '--port', '0', '--poll', '200', '--record', recording]);
    const port = await listeningPort(serve);
    assert.match(serve.stdout(), /SIMULATED cluster/);
    assert.match(serve.stdout(), /operator actions: disabled/);
    await waitFor(async () => {
      const reply = await httpGet(port, '/api/snapshot');
      if (reply.status !== 200) return undefined;
      const snap = ClusterSnapshotSchema.parse(JSON.parse(reply.body));
      return snap.nodes.some((n) => n.status === 'STARTED') ? true : undefined;
    }, 'a live snapshot');
    serve.child.kill('SIGTERM');
    assert.equal(await serve.exit, 0);
    assert.match(serve.stdout(), /SIGTERM, shutting down/);
    const lines = (await readFile(recording, 'utf8')).trim().split('\n');
    assert.ok(lines.length > 1, 'the recording has content');

    const replay = run(['replay', recording, '--port', '0', '--speed', '1000']);
    const replayPort = await listeningPort(replay);
    const snap = await waitFor(async () => {
      const reply = await httpGet(replayPort, '/api/snapshot');
      if (reply.status !== 200) return undefined;
      const s = ClusterSnapshotSchema.parse(JSON.parse(reply.body));
      return s.nodes.length > 0 ? s : undefined;
    }, 'the replayed snapshot');
    assert.equal(snap.connection.mode, 'replay');
    replay.child.kill('SIGINT');
    assert.equal(await replay.exit, 0);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
