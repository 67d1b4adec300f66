import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startSimulator } from '../../../../../native-mgm/sim/index.js';
import type { ClusterConfig, MgmHost } from '../../../../../native-mgm/index.js';
import { createEngine } from '../../../create-engine.js';
import { configMgmds, resolveHost } from '../failover-targets.js';
import { runCli } from '../../../../cli/test/run-cli.js';
import { EXIT } from '../../../../cli/exit-codes.js';
import { waitFor } from '../../../test/helpers.js';

// Issue 24 item 7 (a served configuration made any host a failover target, with no way to refuse it) and
// issue 23 item 8 (the server in use listed again as a failover target under another spelling).

const at = (host: string, port: number): MgmHost => ({ host, port, bindAddress: null });

function configListing(...mgmds: Array<[string, number]>): ClusterConfig {
  return {
    generation: 1,
    name: 'test',
    primaryMgmd: 1,
    nodes: mgmds.map(([hostname, port], i) => ({ nodeId: i + 1, type: 'MGM', hostname, nodeGroup: null, params: { PortNumber: port } })),
    connections: [],
  } as unknown as ClusterConfig;
}

test('a configured mgmd is told from the connectstring\'s by resolved address and port, not by spelling', async () => {
  const localhost = await resolveHost('localhost');
  assert.ok(localhost.includes('127.0.0.1') || localhost.includes('::1'), `localhost resolves to ${localhost.join(', ')}`);
  const loopback = localhost.includes('127.0.0.1') ? '127.0.0.1' : '::1';
  const config = configListing([loopback, 41001], ['::ffff:127.0.0.1', 41001], [loopback, 41002], ['LOCALHOST', 41002]);
  // The server in use (localhost:41001) is no failover target under its address; 41002 is another one, once.
  assert.deepEqual(await configMgmds(config, [at('localhost', 41001)]), [at(loopback, 41002)]);
  // A name that does not resolve now is still a target (dialling it fails like an unreachable host).
  const unknown = configListing(['mgm-not-resolvable.invalid', 1186]);
  assert.deepEqual(await configMgmds(unknown, [at('localhost', 1186)]), [at('mgm-not-resolvable.invalid', 1186)]);
});

test('connected as localhost, the simulator\'s own 127.0.0.1 is not offered as a failover target; the second mgmd is', async (t) => {
  const sim = await startSimulator({ scenario: 'idle', dataNodes: 2, mgmNodes: 2 });
  t.after(() => sim.close());
  const [first, second] = sim.mgmds;
  assert.equal(first?.host, '127.0.0.1');
  const engine = await createEngine({ host: 'serve', clusters: [{ connectstring: `localhost:${first!.port}` }], simulator: false, pollIntervalMs: 300, requestTimeoutMs: 2000 });
  t.after(() => engine.close());
  const snap = await waitFor('failover targets from the configuration', async () => {
    const s = await engine.handlers.getSnapshot({});
    return s.connection.configMgmds?.length ? s : null;
  });
  assert.deepEqual(snap.connection.configMgmds, [`127.0.0.1:${second!.port}`]);
});

test('failover connectstring-only: the configuration adds no target, and the setting applies at once when changed', async (t) => {
  const sim = await startSimulator({ scenario: 'idle', dataNodes: 2, mgmNodes: 2 });
  t.after(() => sim.close());
  const [first, second] = sim.mgmds;
  const engine = await createEngine({
    host: 'serve',
    clusters: [{ connectstring: `${first!.host}:${first!.port}` }],
    simulator: false,
    pollIntervalMs: 300,
    requestTimeoutMs: 2000,
    failover: 'connectstring-only',
  });
  t.after(() => engine.close());
  assert.equal((await engine.handlers.getSettings({})).failover, 'connectstring-only');
  await waitFor('the configuration read', async () => (typeof (await engine.handlers.getSnapshot({})).configGeneration === 'number' ? true : null));
  assert.equal((await engine.handlers.getSnapshot({})).connection.configMgmds, undefined);
  await sim.stopMgmd(first!.nodeId);
  await waitFor('the management server lost', async () => ((await engine.handlers.getSnapshot({})).connection.status !== 'live' ? true : null));
  // The second mgmd is up, but the connectstring does not name it: no failover, for as long as we watch.
  await new Promise((r) => setTimeout(r, 2500));
  const lost = await engine.handlers.getSnapshot({});
  assert.notEqual(lost.connection.status, 'failed-over');
  assert.notEqual(lost.connection.mgmd?.port, second!.port);

  await engine.handlers.updateSettings({ failover: 'from-config' });
  const failed = await waitFor('failed over once the setting allows it', async () => {
    const s = await engine.handlers.getSnapshot({});
    return s.connection.status === 'failed-over' ? s : null;
  });
  assert.equal(failed.connection.mgmd?.port, second!.port);
  assert.deepEqual(failed.connection.configMgmds, [`${second!.host}:${second!.port}`]);
});

test('--failover takes only the documented policies', async () => {
  const r = await runCli(['serve', '--failover', 'anywhere', '--port', '0']);
  assert.equal(r.code, EXIT.USAGE);
  assert.match(r.stderr, /Allowed choices are from-config, connectstring-only/);
});
