import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator } from '../../../native-mgm/sim/index.js';
import { REFERENCE_BLOB } from '../../../native-mgm/config/test/reference-blob.js';
import { configReply, mgmdScript, ScriptedServer } from '../../../native-mgm/client/test/scripted-server.js';
import { EXIT } from '../exit-codes.js';
import { freePort } from '../../../native-mgm/test/free-port.js';
import { runCli, spawnCli } from './run-cli.js';

interface ConfigJson {
  name: string;
  generation: number;
  primaryMgmd: number;
  nodes: Array<{ nodeId: number; type: string; hostname: string; nodeGroup: number | null; params: Record<string, number | string> }>;
  connections: Array<{ type: string; nodeId1: number; nodeId2: number }>;
}

test('config --json against the simulator: nodes, node groups, NoOfReplicas, memory sizes', async (t) => {
  const sim = await startSimulator({ dataNodes: 4, replicas: 2, apiNodes: 3, scenario: 'idle' });
  t.after(() => sim.close());
  const result = await runCli(['config', '-c', sim.connectstring, '--json']);
  assert.equal(result.code, EXIT.OK, result.stderr);
  const out = JSON.parse(result.stdout) as ConfigJson;
  assert.equal(out.generation, 1);
  const data = out.nodes.filter((n) => n.type === 'NDB');
  assert.deepEqual(data.map((n) => [n.nodeId, n.nodeGroup]), [[2, 0], [3, 0], [4, 1], [5, 1]]);
  assert.ok(data.every((n) => n.params['NoOfReplicas'] === 2 && n.params['DataMemory'] === 2147483648 && n.params['MaxNoOfTables'] === 128));
  assert.deepEqual(out.nodes.filter((n) => n.type === 'MGM').map((n) => [n.nodeId, n.params['PortNumber']]), [[1, sim.mgmds[0]!.port]]);
  const one = JSON.parse((await runCli(['config', '-c', sim.connectstring, '--json', '--node', '3'])).stdout) as ConfigJson;
  assert.deepEqual(one.nodes.map((n) => n.nodeId), [3]);
  assert.ok(one.connections.length > 0 && one.connections.every((c) => c.nodeId1 === 3 || c.nodeId2 === 3));
  const human = await runCli(['config', '-c', sim.connectstring]);
  assert.match(human.stdout, /^Cluster MC_SIMULATED, configuration generation 1/);
  assert.match(human.stdout, /\[ndbd\(DB\)\]\nNodeId=2\n[^[]*NoOfReplicas=2\n/);
  assert.match(human.stdout, /\[ndb_mgmd\(MGM\)\]\nNodeId=1\n/);
  const missing = await runCli(['config', '-c', sim.connectstring, '--node', '77']);
  assert.equal(missing.code, EXIT.USAGE);
});

test('config --json against a scripted server replaying a real server\'s bytes', async (t) => {
  let body = configReply(REFERENCE_BLOB);
  const server = await ScriptedServer.start(mgmdScript(50, (req) => (req.command === 'get config_v2' ? body : undefined)));
  t.after(() => server.close());
  const result = await runCli(['config', '-c', `127.0.0.1:${server.port}`, '--json']);
  assert.equal(result.code, EXIT.OK, result.stderr);
  const out = JSON.parse(result.stdout) as ConfigJson;
  assert.equal(out.name, 'MC_20210614170132');
  assert.equal(out.primaryMgmd, 50);
  assert.deepEqual(out.nodes.filter((n) => n.type === 'NDB').map((n) => [n.nodeId, n.params['NoOfReplicas'], n.params['DataMemory'], n.params['DataDir']]), [
    [2, 2, 209715200, '/home/mysql/datadir/ndb_data/node2'],
    [3, 2, 209715200, '/home/mysql/datadir/ndb_data/node3'],
  ]);
  assert.equal(out.nodes.filter((n) => n.type === 'API').length, 10);
  // An unusable body is a protocol error (exit 4), a refusal the server's text (exit 5).
  body = configReply(REFERENCE_BLOB.replace('TkRCQ09ORjI', 'TkRCQ09ORjM'));
  const bad = await runCli(['config', '-c', `127.0.0.1:${server.port}`]);
  assert.equal(bad.code, EXIT.PROTOCOL, bad.stderr);
  assert.match(bad.stderr, /unusable configuration: wrong magic/);
  body = 'get config reply\nresult: Nodeid 7 does not exist. \n\n';
  const refused = await runCli(['config', '-c', `127.0.0.1:${server.port}`]);
  assert.equal(refused.code, EXIT.COMMAND_FAILED);
  assert.match(refused.stderr, /Nodeid 7 does not exist/);
});

const CLUSTER_INI = `
[ndbd default]
NoOfReplicas=2
DataMemory=1G
[ndb_mgmd]
NodeId=1
HostName=127.0.0.1
[ndb_mgmd]
NodeId=2
HostName=127.0.0.1
[ndbd]
NodeId=11
HostName=10.1.0.11
[ndbd]
NodeId=12
HostName=10.1.0.12
[ndbd]
NodeId=13
HostName=10.1.0.13
[ndbd]
NodeId=14
HostName=10.1.0.14
[mysqld]
NodeId=50
[mysqld]
NodeId=51
`;

/** Starts `ndbtop sim` with these arguments; resolves with the connectstring it prints. */
async function startSim(t: TestContext, args: string[]): Promise<string> {
  const child = spawnCli(['sim', ...args]);
  t.after(() => child.kill('SIGTERM'));
  return new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /connectstring: (\S+)\n/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', (code) => reject(new Error(`sim exited ${code}: ${out}`)));
  });
}

test('sim --config: a config.ini with 2 mgmds, 4 data nodes and NoOfReplicas 2; show and config match it', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ndbtop-ini-'));
  const ini = join(dir, 'config.ini');
  writeFileSync(ini, CLUSTER_INI);
  const connectstring = await startSim(t, ['--config', ini, '--port', '0', '--scenario', 'idle']);
  assert.equal(connectstring.split(',').length, 2);
  const show = JSON.parse((await runCli(['show', '-c', connectstring, '--json'])).stdout) as { nodes: Array<{ nodeId: number; type: string; nodeGroup: number | null; status: string }> };
  assert.deepEqual(show.nodes.filter((n) => n.type === 'NDB').map((n) => [n.nodeId, n.nodeGroup, n.status]), [[11, 0, 'STARTED'], [12, 0, 'STARTED'], [13, 1, 'STARTED'], [14, 1, 'STARTED']]);
  assert.deepEqual(show.nodes.filter((n) => n.type === 'MGM').map((n) => n.nodeId), [1, 2]);
  assert.deepEqual(show.nodes.filter((n) => n.type === 'API').map((n) => n.nodeId), [50, 51]);
  const config = JSON.parse((await runCli(['config', '-c', connectstring, '--json'])).stdout) as ConfigJson;
  assert.deepEqual(config.nodes.filter((n) => n.type === 'NDB').map((n) => [n.nodeId, n.hostname, n.nodeGroup, n.params['NoOfReplicas'], n.params['DataMemory']]), [
    [11, '10.1.0.11', 0, 2, 1073741824],
    [12, '10.1.0.12', 0, 2, 1073741824],
    [13, '10.1.0.13', 1, 2, 1073741824],
    [14, '10.1.0.14', 1, 2, 1073741824],
  ]);
  assert.deepEqual(config.nodes.filter((n) => n.type === 'MGM').map((n) => `${n.hostname}:${n.params['PortNumber']}`).join(','), connectstring);

  // Without --port each mgmd listens on its PortNumber; two that share one (different hosts in real life) get
  // consecutive ports here, and the served configuration says so.
  const port = await freePort(2);
  const shared = join(dir, 'shared-port.ini');
  writeFileSync(shared, CLUSTER_INI.replace(/HostName=127\.0\.0\.1/g, `HostName=127.0.0.1\nPortNumber=${port}`));
  const own = await startSim(t, ['--config', shared, '--scenario', 'idle']);
  assert.equal(own, `127.0.0.1:${port},127.0.0.1:${port + 1}`);
  const served = JSON.parse((await runCli(['config', '-c', own, '--json'])).stdout) as ConfigJson;
  assert.deepEqual(served.nodes.filter((n) => n.type === 'MGM').map((n) => n.params['PortNumber']), [port, port + 1]);

  const broken = join(dir, 'broken.ini');
  writeFileSync(broken, '[ndb_mgmd]\n[ndbd]\nNoOfReplicas=2\n');
  const refused = await runCli(['sim', '--config', broken, '--port', '0']);
  assert.equal(refused.code, EXIT.USAGE);
  assert.match(refused.stderr, /node group 0 has 1 data nodes, NoOfReplicas is 2/);
});
