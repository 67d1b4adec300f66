import { test } from 'node:test';
import assert from 'node:assert/strict';
import { freePort } from '../../../native-mgm/test/free-port.js';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { startSimulator } from '../../../native-mgm/sim/index.js';
import { MgmClient } from '../../../native-mgm/client/mgm-client.js';
import { EXIT } from '../exit-codes.js';
import { runCli, spawnCli } from './run-cli.js';

test('show --json is the typed node list of the same cluster the client sees', async (t) => {
  const sim = await startSimulator({ dataNodes: 4, replicas: 2, apiNodes: 3, connectedApiNodes: 2, scenario: 'idle' });
  t.after(() => sim.close());
  const result = await runCli(['show', '-c', sim.connectstring, '--json']);
  assert.equal(result.code, EXIT.OK, result.stderr);
  const out = JSON.parse(result.stdout) as { mgmd: { port: number; nodeId: number }; nodes: Array<{ nodeId: number; type: string; status: string; version: string | null; nodeGroup: number | null }> };
  assert.equal(out.mgmd.port, sim.mgmds[0]?.port);
  assert.equal(out.mgmd.nodeId, sim.mgmds[0]?.nodeId);
  const client = new MgmClient({ connectstring: sim.connectstring });
  t.after(() => client.close());
  const direct = await client.getStatus();
  assert.deepEqual(
    out.nodes.map((n) => [n.nodeId, n.type, n.status]),
    direct.map((n) => [n.nodeId, n.type, n.status]),
  );
  assert.equal(out.nodes.filter((n) => n.type === 'NDB').length, 4);
  assert.ok(out.nodes.filter((n) => n.type === 'NDB').every((n) => n.version === '8.4.3' && typeof n.nodeGroup === 'number'));
});

test('show prints the ndb_mgm layout with sections, node groups and the master', async (t) => {
  const sim = await startSimulator({ dataNodes: 2, replicas: 2, apiNodes: 2, connectedApiNodes: 1, scenario: 'idle' });
  t.after(() => sim.close());
  const { code, stdout } = await runCli(['show'], { NDB_CONNECTSTRING: sim.connectstring });
  assert.equal(code, EXIT.OK);
  assert.match(stdout, /^Connected to Management Server at: 127\.0\.0\.1:\d+\nCluster Configuration\n-+\n\[ndbd\(NDB\)\]\t2 node\(s\)\n/);
  assert.match(stdout, /\[ndb_mgmd\(MGM\)\]\t1 node\(s\)/);
  assert.match(stdout, /\[mysqld\(API\)\]\t2 node\(s\)/);
  assert.match(stdout, /Nodegroup: 0, \*\)/, 'the master is starred');
  assert.match(stdout, /\(not connected, accepting connect from any host\)/);
});

test('exit codes tell a bad connectstring, an unreachable server and a protocol error apart', async (t) => {
  const bad = await runCli(['show', '-c', 'host:01186']);
  assert.equal(bad.code, EXIT.USAGE);
  assert.match(bad.stderr, /leading zero|octal/i);

  const port = await freePort();
  const down = await runCli(['show', '-c', `127.0.0.1:${port}`, '--timeout', '1000']);
  assert.equal(down.code, EXIT.UNREACHABLE);
  assert.match(down.stderr, /no management server reachable/);

  const garbage = createServer((s) => s.end('SSH-2.0-OpenSSH_9.6\r\n'));
  garbage.listen(0, '127.0.0.1');
  await once(garbage, 'listening');
  t.after(() => garbage.close());
  const proto = await runCli(['show', '-c', `127.0.0.1:${(garbage.address() as { port: number }).port}`]);
  assert.equal(proto.code, EXIT.PROTOCOL, proto.stderr);
  assert.match(proto.stderr, /expected reply "version"/);

  const usage = await runCli(['sim', '--data-nodes', '500']);
  assert.equal(usage.code, EXIT.USAGE);
});

test('events --json prints parsed events as they arrive; a rolling restart shows its start phases', async (t) => {
  const sim = await startSimulator({ dataNodes: 2, replicas: 2, scenario: 'idle', speed: 20 });
  t.after(() => sim.close());
  const child = spawnCli(['events', '-c', sim.connectstring, '--json']);
  t.after(() => child.kill('SIGKILL'));
  const lines: Array<{ name: string; sourceNodeId: number; fields: Record<string, number> }> = [];
  let buffered = '';
  const sawPhases = new Promise<void>((resolve) => {
    child.stdout?.on('data', (d: Buffer) => {
      buffered += d.toString();
      const parts = buffered.split('\n');
      buffered = parts.pop() ?? '';
      for (const p of parts) lines.push(JSON.parse(p) as (typeof lines)[number]);
      if (lines.some((e) => e.name === 'NDBStartCompleted' && e.sourceNodeId === 3)) resolve();
    });
  });
  await new Promise<void>((resolve) => child.stderr?.on('data', (d: Buffer) => /listening to/.test(d.toString()) && resolve()));
  const client = new MgmClient({ connectstring: sim.connectstring });
  t.after(() => client.close());
  await client.restart([3]);
  await sawPhases;
  const phases = lines.filter((e) => e.name === 'StartPhaseCompleted' && e.sourceNodeId === 3).map((e) => e.fields.phase);
  assert.ok(phases.length >= 3, `phases seen: ${phases.join(',')}`);
  assert.deepEqual([...phases].sort((a, b) => (a ?? 0) - (b ?? 0)), phases, 'phases arrive in order');
  assert.ok(lines.some((e) => e.name === 'NDBStopStarted' && e.sourceNodeId === 3));
  child.kill('SIGINT');
  const [code] = (await once(child, 'close')) as [number | null];
  assert.equal(code, 0);
});

test('ndbtop with no sub-command: without Electron it serves the dashboard on the simulated cluster instead', async (t) => {
  const child = spawnCli(['--port', '0'], { NDBTOP_ELECTRON: 'off' });
  t.after(() => child.kill('SIGKILL'));
  let out = '';
  let err = '';
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      // The URL line comes first; wait for the whole banner (it ends with the endpoints line).
      const m = /listening on (http:\/\/\S+)[\s\S]*endpoints:/.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    child.on('close', () => reject(new Error(`exited early: ${out} ${err}`)));
  });
  assert.match(err, /cannot start the desktop app: NDBTOP_ELECTRON=off/);
  assert.match(out, /SIMULATED cluster/);
  const snapshot = (await (await fetch(new URL('/api/snapshot', url))).json()) as { connection: { mode: string } };
  assert.equal(snapshot.connection.mode, 'simulated');
  const page = await fetch(url);
  assert.equal(page.status, 200);
  assert.match(await page.text(), /<div id="root">|<html/i);
  child.kill('SIGTERM');
  const [code] = (await once(child, 'close')) as [number | null];
  assert.equal(code, 0);
});

test('ndbtop -c with a malformed connectstring fails at once with the usage exit code', async () => {
  const r = await runCli(['-c', 'a, b'], { NDBTOP_ELECTRON: 'off' });
  assert.equal(r.code, EXIT.USAGE);
  assert.match(r.stderr, /position/);
});

test('serve with a malformed connectstring exits with the usage code before starting anything', async () => {
  const r = await runCli(['serve', '--port', '0', '-c', 'host:01186']);
  assert.equal(r.code, EXIT.USAGE);
  assert.match(r.stderr, /leading zero|octal/i);
  assert.doesNotMatch(r.stdout, /listening/);
});

test('events without --json prints the dashboard sentences, one line per event', async (t) => {
  const sim = await startSimulator({ dataNodes: 2, replicas: 2, scenario: 'idle', speed: 20 });
  t.after(() => sim.close());
  const child = spawnCli(['events', '-c', sim.connectstring]);
  t.after(() => child.kill('SIGKILL'));
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  await new Promise<void>((resolve) => child.stderr?.on('data', (d: Buffer) => /listening to/.test(d.toString()) && resolve()));
  const client = new MgmClient({ connectstring: sim.connectstring });
  t.after(() => client.close());
  await client.restart([3]);
  await new Promise<void>((resolve) => {
    const check = (): void => void (/Node 3: start phase \d+ completed \(node restart\)/.test(out) ? resolve() : setTimeout(check, 50));
    check();
  });
  assert.match(out, /^\d{4}-\d\d-\d\dT\S+Z {2}INFO {5}Node 3: node shutdown initiated/m);
});
