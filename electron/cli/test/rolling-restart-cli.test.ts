import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import type { RunReport } from '../../contract/schemas/runs.js';
import { startSimulator } from '../../../native-mgm/sim/index.js';
import { createEngine } from '../../engine/create-engine.js';
import { startServeServer } from '../../serve/serve-server.js';
import { ClusterWitness } from '../../engine/rolling/test/sim-harness.js';
import { EXIT } from '../exit-codes.js';
import { runCli, spawnCli } from './run-cli.js';

const lines = (stdout: string): Array<Record<string, unknown>> => stdout.trim().split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, unknown>);

/**
 * A 4-node simulated cluster for one test, a state file of its own and a witness polling `get status` on its own
 * connection; all gone when the test ends, the witness first.
 */
async function cluster(t: TestContext, speed: number) {
  const sim = await startSimulator({ dataNodes: 4, replicas: 2, scenario: 'idle', speed });
  const witness = new ClusterWitness(sim);
  const dir = mkdtempSync(join(tmpdir(), 'ndbtop-rr-'));
  t.after(async () => {
    witness.close();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { sim, stateFile: join(dir, 's.json'), witness };
}

test('rolling-restart refuses without --allow-actions, and --dry-run prints the plan and sends nothing', async (t) => {
  const { sim, stateFile, witness } = await cluster(t, 20);
  const refused = await runCli(['rolling-restart', '-c', sim.connectstring, '--yes', '--state-file', stateFile]);
  assert.equal(refused.code, EXIT.USAGE);
  assert.match(refused.stderr, /add --allow-actions/);
  const dry = await runCli(['rolling-restart', '-c', sim.connectstring, '--dry-run', '--json', '--state-file', stateFile]);
  assert.equal(dry.code, EXIT.OK, dry.stderr);
  const [plan] = lines(dry.stdout);
  assert.equal(plan?.['event'], 'plan');
  assert.deepEqual((plan?.['steps'] as Array<{ nodes: number[] }>).map((s) => s.nodes), [[2, 4], [3, 5]]);
  assert.match(String((plan?.['manual'] as string[])[0]), /management server 1: restart it by hand/);
  assert.equal([...witness.stops.values()].length, 0, 'nothing was restarted');
});

/** A recording ndbtop watching the cluster and serving the runs endpoint, as `ndbtop record --port` does. */
async function recorder(t: TestContext, connectstring: string, file: string): Promise<{ url: string; close: () => Promise<void> }> {
  const engine = await createEngine({ host: 'serve', clusters: [{ connectstring }], recordFile: file, pollIntervalMs: 200 });
  const server = await startServeServer({ engine, staticDir: tmpdir(), host: '127.0.0.1', port: 0 });
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    await server.close();
    await engine.close();
  };
  t.after(close);
  return { url: server.url, close };
}

test('ndbtop killed mid-step: the next start shows the plan halted at that step; --resume completes it, each node restarted once, one run marked across both processes', async (t) => {
  const { sim, stateFile, witness } = await cluster(t, 5);
  const file = join(tmpdir(), `ndbtop-rr-${process.pid}-${Date.now()}.rec`);
  t.after(() => rmSync(file, { force: true }));
  const rec = await recorder(t, sim.connectstring, file);
  const args = ['rolling-restart', '-c', sim.connectstring, '--allow-actions', '--json', '--state-file', stateFile, '--poll-interval', '100', '--mark-url', rec.url];
  const child = spawnCli([...args, '--yes']);
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  // Killed once the restart runs on the server: mid-step, the reply still to come.
  await new Promise<void>((resolve, reject) => {
    const off = sim.model.onStatusChange((n) => {
      if (n.id !== 2 || n.status === 'STARTED') return;
      off();
      child.kill('SIGKILL');
      resolve();
    });
    child.on('close', () => reject(new Error(`ended before restarting: ${out}`)));
  });
  assert.ok(out.includes('"event":"restarting"'), out);
  const shown = await runCli(args);
  assert.equal(shown.code, EXIT.HALTED, shown.stderr);
  const halted = lines(shown.stdout).find((e) => e['event'] === 'halted');
  assert.equal(halted?.['step'], 1);
  assert.equal(halted?.['code'], 'interrupted');
  assert.deepEqual(halted?.['nodes'], [2, 4]);
  assert.match(shown.stderr, /in progress .*--resume, --skip or --abort/);

  const resumed = await runCli([...args, '--resume'], {}, 60_000);
  assert.equal(resumed.code, EXIT.OK, resumed.stderr + resumed.stdout);
  const events = lines(resumed.stdout);
  assert.ok(events.every((e) => typeof e['event'] === 'string'));
  assert.equal(events.at(-1)?.['event'], 'done');
  assert.deepEqual(events.filter((e) => e['event'] === 'restarting').map((e) => e['nodes']), [[3, 5]], 'step 1 is not sent again');
  for (const id of [2, 3, 4, 5]) assert.equal(witness.stopCount(id), 1, `node ${id} restarted once`);
  assert.deepEqual(witness.groupsWithoutLiveNode, []);

  // One run in the recording: the killed process marked step 1, the resumed one step 2 on the same run and its stop.
  await rec.close();
  const report = await runCli(['report', file, '--format', 'json'], {}, 60_000);
  assert.equal(report.code, EXIT.OK, report.stderr);
  const { runs } = JSON.parse(report.stdout) as { runs: RunReport[] };
  assert.equal(runs.length, 1, report.stdout.slice(0, 500));
  const [run] = runs;
  assert.ok(run);
  assert.match(run.name, /^rolling restart [0-9a-f]{8}$/);
  assert.deepEqual(run.tags, { kind: 'rolling-restart', order: 'node-group' });
  assert.deepEqual(run.phases.map((p) => p.name), ['step 1: nodes 2, 4', 'step 2: nodes 3, 5']);
  assert.notEqual(run.end, null);
  assert.deepEqual(run.summary.restarts.map((r) => r.nodeId).sort(), [2, 3, 4, 5], 'each node down once in the run');
  assert.ok(run.summary.restarts.every((r) => r.upAt !== null));
});

test('a halt ends the command with exit 8 and a halted event with its reason', async (t) => {
  const { sim, stateFile } = await cluster(t, 20);
  sim.model.failNode(5);
  const r = await runCli(['rolling-restart', '-c', sim.connectstring, '--allow-actions', '--yes', '--json', '--state-file', stateFile]);
  assert.equal(r.code, EXIT.HALTED, r.stderr);
  const last = lines(r.stdout).at(-1);
  assert.equal(last?.['event'], 'halted');
  assert.match(String(last?.['reason']), /node 5 is NO_CONTACT: restarting its partner node 4 would take node group 1 down/);
});
