import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import type { RunReport } from '../../contract/schemas/runs.js';
import { createEngine } from '../../engine/create-engine.js';
import { startServeServer } from '../../serve/serve-server.js';
import { PlanStore } from '../../engine/features/rolling/plan/plan-store.js';
import type { ClusterIdentity } from '../../engine/features/rolling/cluster-identity.js';
import { EXIT } from '../exit-codes.js';
import { EVENT_TYPES_BY_NAME } from '../../../native-mgm/index.js';
import { freePort } from '../../../native-mgm/test/free-port.js';
import type { EngineHost } from '../../engine/core/engine-host.js';
import { waitFor } from '../../engine/test/helpers.js';
import { runCli, spawnCli } from './run-cli.js';
import { cluster } from './rolling-cluster.js';

/** DBTUP, the block whose MemoryUsage reports are data memory. */
const DATA_MEMORY_BLOCK = 249;

const lines = (stdout: string): Array<Record<string, unknown>> => stdout.trim().split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, unknown>);

/** Another cluster (another simulator once at the same address): its halted plan, with node 5 not answering. */
const OTHER: ClusterIdentity = { key: '0123456789abcdef', label: 'cluster "other" with data nodes 2, 3, 4, 5, 6, 7 (0123456789abcdef)' };

/** The other cluster's plan, halted at its step 2 on node 5, as its rolling-restart left it in the file. */
async function othersHaltedPlan(t: TestContext, file: string, version: 1 | 2): Promise<void> {
  rmSync(file, { force: true });
  const other = await cluster(t, 20);
  const args = ['rolling-restart', '-c', other.sim.connectstring, '--allow-actions', '--allow-unchecked', '--yes', '--json', '--state-file', file, '--nodes', '2'];
  other.sim.model.failNode(5);
  const halted = await runCli(args);
  assert.equal(halted.code, EXIT.HALTED, halted.stderr);
  const written = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  // Version 1 is the file an ndbtop wrote before plans were kept per cluster: no cluster in it.
  const { cluster: _theirs, ...v1 } = written;
  writeFileSync(file, JSON.stringify(version === 1 ? { ...v1, version: 1 } : { ...written, cluster: OTHER }));
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
  assert.deepEqual({ order: plan?.['order'], pauseMs: plan?.['pauseMs'], etaSource: plan?.['etaSource'] }, { order: 'node-group', pauseMs: 0, etaSource: 'none' });
  assert.match(String(plan?.['alerts']), /^not checked: that needs a watching ndbtop \(--mark-url/);

  // The chosen nodes, one at a time, a pause between steps.
  const chosen = await runCli(['rolling-restart', '-c', sim.connectstring, '--dry-run', '--json', '--state-file', stateFile, '--nodes', '5,2,3', '--order', 'node-id', '--pause', '90s']);
  assert.equal(chosen.code, EXIT.OK, chosen.stderr);
  const [shaped] = lines(chosen.stdout);
  assert.deepEqual((shaped?.['steps'] as Array<{ nodes: number[] }>).map((s) => s.nodes), [[2], [3], [5]]);
  assert.deepEqual(
    { order: shaped?.['order'], pauseMs: shaped?.['pauseMs'] },
    { order: 'node-id', pauseMs: 90_000 },
  );
  assert.equal([...witness.stops.values()].length, 0, 'nothing was restarted');
});

test('--dry-run reads no state file and writes none: another cluster\'s halted plan in it is neither shown nor touched', async (t) => {
  const { sim, stateFile, witness } = await cluster(t, 20);
  await othersHaltedPlan(t, stateFile, 2);
  const before = { bytes: readFileSync(stateFile), mtimeMs: statSync(stateFile).mtimeMs };
  const dry = await runCli(['rolling-restart', '-c', sim.connectstring, '--allow-actions', '--allow-unchecked', '--dry-run', '--json', '--state-file', stateFile]);
  assert.equal(dry.code, EXIT.OK, dry.stderr);
  const events = lines(dry.stdout);
  assert.deepEqual(events.map((e) => e['event']), ['plan'], 'this cluster\'s new plan only, no halt of another');
  assert.deepEqual((events[0]?.['steps'] as Array<{ nodes: number[] }>).map((s) => s.nodes), [[2, 4], [3, 5]]);
  assert.deepEqual(readFileSync(stateFile), before.bytes);
  assert.equal(statSync(stateFile).mtimeMs, before.mtimeMs);
  // Not read at all: a file nothing could parse changes nothing for a dry run.
  writeFileSync(stateFile, 'not a state file');
  const unread = await runCli(['rolling-restart', '-c', sim.connectstring, '--dry-run', '--json', '--state-file', stateFile]);
  assert.equal(unread.code, EXIT.OK, unread.stderr);
  assert.equal(readFileSync(stateFile, 'utf8'), 'not a state file');
  assert.equal(witness.stops.size, 0, 'nothing was restarted');
});

test('a state file of another cluster, or one written before plans were kept per cluster, is not applied: said in words, nothing sent or written', async (t) => {
  const { sim, stateFile, witness, dir } = await cluster(t, 20);
  const args = ['rolling-restart', '-c', sim.connectstring, '--allow-actions', '--allow-unchecked', '--yes', '--json', '--state-file', stateFile];
  for (const version of [2, 1] as const) {
    await othersHaltedPlan(t, stateFile, version);
    const bytes = readFileSync(stateFile);
    for (const act of [[], ['--resume'], ['--abort']]) {
      const r = await runCli([...args, ...act]);
      assert.equal(r.code, EXIT.USAGE, r.stderr);
      assert.ok(!lines(r.stdout).some((e) => e['event'] === 'halted'), 'the other cluster\'s halt is not shown as this one\'s');
      assert.match(r.stderr, version === 2 ? /belongs to cluster "other" with data nodes 2, 3, 4, 5, 6, 7 .*, not to cluster ".*" with data nodes 2, 3, 4, 5 .*which is not applied here; nothing was sent or written/s : /was written by an earlier ndbtop that did not record which cluster it belongs to; it holds a plan made for .* \(data node 2, halted at step 1 of 1\), which is not applied to cluster/s);
      assert.deepEqual(readFileSync(stateFile), bytes);
    }
  }
  assert.equal(witness.stops.size, 0, 'nothing was restarted');

  // The default: one file per cluster under ~/.ndbtop/rolling-restart; the old single file is said not to apply.
  const home = join(dir, 'home');
  mkdirSync(join(home, '.ndbtop'), { recursive: true });
  await othersHaltedPlan(t, join(home, '.ndbtop', 'rolling-restart.json'), 1);
  const legacy = readFileSync(join(home, '.ndbtop', 'rolling-restart.json'));
  const declined = await runCli(['rolling-restart', '-c', sim.connectstring, '--allow-actions', '--allow-unchecked', '--json', '--nodes', '2'], { HOME: home }, 30_000, 'n\n');
  assert.equal(declined.code, EXIT.DECLINED, declined.stderr);
  const said = lines(declined.stdout);
  assert.deepEqual(said.map((e) => e['event']), ['note', 'plan']);
  assert.match(String(said[0]?.['text']), /rolling-restart\.json was written by an earlier ndbtop .* not applied to cluster .*delete it once that plan is over/);
  assert.deepEqual(readFileSync(join(home, '.ndbtop', 'rolling-restart.json')), legacy);
});

test('without --yes it asks before the first step: no, or an input that ends, sends nothing (exit 12); yes restarts', async (t) => {
  const { sim, stateFile, witness, identity } = await cluster(t, 20);
  const args = ['rolling-restart', '-c', sim.connectstring, '--allow-actions', '--allow-unchecked', '--json', '--state-file', stateFile, '--poll-interval', '100', '--nodes', '2'];
  const no = await runCli(args, {}, 30_000, 'n\n');
  assert.deepEqual({ code: no.code, events: lines(no.stdout).map((e) => e['event']) }, { code: EXIT.DECLINED, events: ['plan'] });
  assert.match(no.stderr, /Restart 1 data node in 1 step\? \[y\/N\] .*nothing done: not confirmed/s);
  // No terminal, nothing piped: stdin is at its end from the start.
  const closed = await runCli(args);
  assert.equal(closed.code, EXIT.DECLINED, closed.stderr);
  assert.match(closed.stderr, /nothing done: the input ended before an answer \(add --yes/);
  assert.equal(witness.stops.size, 0, 'nothing was restarted');
  assert.deepEqual(new PlanStore(stateFile, identity).load(), { kind: 'none' }, 'nothing recorded');

  const yes = await runCli(args, {}, 30_000, 'y\n');
  assert.equal(yes.code, EXIT.OK, yes.stderr);
  assert.equal(lines(yes.stdout).at(-1)?.['event'], 'done');
  assert.deepEqual([...witness.stops], [[2, 1]], 'node 2 restarted, once, and no other');
});

test('--skip goes on with the step after the one halted in, whose nodes are not restarted; --abort sends nothing', async (t) => {
  // Speed 5: a step lasts seconds, so the Ctrl-C sent when its restart goes out lands within it.
  const { sim, stateFile, witness, identity } = await cluster(t, 5);
  const args = ['rolling-restart', '-c', sim.connectstring, '--allow-actions', '--allow-unchecked', '--json', '--state-file', stateFile, '--poll-interval', '100'];
  // Ctrl-C while step 1 runs: the plan halts once that step is back, at step 2.
  const child = spawnCli([...args, '--yes', '--nodes', '2,3,4', '--order', 'node-id']);
  let out = '';
  const onOut = (d: Buffer): void => {
    out += d.toString();
    if (!out.includes('"event":"restarting"')) return;
    // Once: a second Ctrl-C leaves at once, and one after the command let go of SIGINT would kill it.
    child.kill('SIGINT');
    child.stdout?.off('data', onOut);
    child.stdout?.on('data', (more: Buffer) => (out += more.toString()));
  };
  child.stdout?.on('data', onOut);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.equal(code, EXIT.HALTED, out);
  const halted = lines(out).at(-1);
  assert.deepEqual([halted?.['event'], halted?.['step'], halted?.['code'], halted?.['nodes']], ['halted', 2, 'operator', [3]]);

  const skipped = await runCli([...args, '--skip']);
  assert.equal(skipped.code, EXIT.OK, skipped.stderr);
  const events = lines(skipped.stdout);
  assert.deepEqual(events.find((e) => e['event'] === 'skipped')?.['nodes'], [3]);
  assert.deepEqual(events.filter((e) => e['event'] === 'restarting').map((e) => e['nodes']), [[4]]);
  assert.deepEqual(events.at(-1), { ...events.at(-1), event: 'done', restarted: [2, 4], skipped: [3] });
  assert.deepEqual([2, 3, 4, 5].map((id) => witness.stopCount(id)), [1, 0, 1, 0]);

  // A halt before anything was sent (node 5 down), then --abort: nothing sent, the plan recorded as aborted.
  sim.model.failNode(5);
  const unsafe = await runCli([...args, '--yes', '--nodes', '2']);
  assert.equal(unsafe.code, EXIT.HALTED, unsafe.stderr);
  const aborted = await runCli([...args, '--abort']);
  assert.equal(aborted.code, EXIT.OK, aborted.stderr);
  assert.equal(lines(aborted.stdout).at(-1)?.['event'], 'aborted');
  const recorded = new PlanStore(stateFile, identity).load();
  assert.equal(recorded.kind === 'ours' ? recorded.stored.machine?.phase.kind : recorded.kind, 'aborted');
  assert.deepEqual([2, 3, 4, 5].map((id) => witness.stopCount(id)), [1, 0, 1, 0], 'the abort sent nothing');
});

/** A recording ndbtop watching the cluster and serving the runs endpoint, as `ndbtop record --port` does. */
async function recorder(t: TestContext, connectstring: string, file: string): Promise<{ url: string; engine: EngineHost; close: () => Promise<void> }> {
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
  return { url: server.url, engine, close };
}

test('ndbtop killed mid-step: the next start shows the plan halted at that step; --resume completes it, each node restarted once, one run marked across both processes', async (t) => {
  const { sim, stateFile, witness } = await cluster(t, 5);
  const file = join(tmpdir(), `ndbtop-rr-${process.pid}-${Date.now()}.rec`);
  t.after(() => rmSync(file, { force: true }));
  const rec = await recorder(t, sim.connectstring, file);
  const args = ['rolling-restart', '-c', sim.connectstring, '--allow-actions', '--allow-unchecked', '--json', '--state-file', stateFile, '--poll-interval', '100', '--mark-url', rec.url];
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
  const r = await runCli(['rolling-restart', '-c', sim.connectstring, '--allow-actions', '--allow-unchecked', '--yes', '--json', '--state-file', stateFile]);
  assert.equal(r.code, EXIT.HALTED, r.stderr);
  const last = lines(r.stdout).at(-1);
  assert.equal(last?.['event'], 'halted');
  assert.match(String(last?.['reason']), /node 5 is NO_CONTACT: restarting its partner node 4 would take node group 1 down/);
});

test('with --mark-url a critical alert active on that ndbtop halts before the step, as does an ndbtop that does not answer; nothing is sent', async (t) => {
  const { sim, stateFile, witness } = await cluster(t, 20);
  const file = join(tmpdir(), `ndbtop-rr-${process.pid}-${Date.now()}-alerts.rec`);
  t.after(() => rmSync(file, { force: true }));
  const rec = await recorder(t, sim.connectstring, file);
  await waitFor('the watching ndbtop hears the events and knows node 3\'s memory', async () => {
    const snap = await rec.engine.handlers.getSnapshot({});
    return snap.connection.eventStream.status === 'live' && snap.nodes.find((n) => n.nodeId === 3)?.memory.data;
  });
  // Node 3 reports its data memory over 90 % (as CMVMI sends it): a critical alert on the watching ndbtop only, held
  // 30 s after the real figures come back below its clear mark.
  sim.model.emit({ type: EVENT_TYPES_BY_NAME.get('MemoryUsage')?.id ?? -1, source: 3, body: [1, 32768, 62_000, 65_536, DATA_MEMORY_BLOCK] });
  const alert = await waitFor('the critical alert on the watching ndbtop', async () => (await rec.engine.handlers.getSnapshot({})).alerts.find((a) => a.severity === 'critical' && a.resolvedAt === null));
  const args = ['rolling-restart', '-c', sim.connectstring, '--allow-actions', '--allow-unchecked', '--yes', '--json', '--state-file', stateFile, '--nodes', '2'];
  const halted = await runCli([...args, '--mark-url', rec.url]);
  assert.equal(halted.code, EXIT.HALTED, halted.stderr);
  const events = lines(halted.stdout);
  assert.match(String(events[0]?.['alerts']), new RegExp(`^critical alerts read from ${rec.url}`));
  assert.equal(events.at(-1)?.['event'], 'halted');
  assert.ok(String(events.at(-1)?.['reason']).includes(`a critical alert is active: ${alert.message}`), String(events.at(-1)?.['reason']));

  const nobody = `http://127.0.0.1:${await freePort()}/`;
  const unknown = await runCli([...args, '--abort']).then(() => runCli([...args, '--mark-url', nobody]));
  assert.equal(unknown.code, EXIT.HALTED, unknown.stderr);
  // (The marks on that ndbtop fail too: notes, after the halt.)
  assert.match(String(lines(unknown.stdout).find((e) => e['event'] === 'halted')?.['reason']), new RegExp(`whether a critical alert is active cannot be told: ${nobody} did not answer`));
  assert.equal(witness.stops.size, 0, 'nothing was restarted');
});

/** `--json` events of one kind. */
const ofKind = (events: Array<Record<string, unknown>>, kind: string): Array<Record<string, unknown>> => events.filter((e) => e['event'] === kind);
const elapsed = (from: Record<string, unknown> | undefined, to: Record<string, unknown> | undefined): number => Date.parse(String(to?.['at'])) - Date.parse(String(from?.['at']));

test('the reply to restart node never comes: each step completes from the status, said in words, and the plan goes on to the next', async (t) => {
  const { sim, stateFile, witness } = await cluster(t, 20);
  // The server restarts the node but its reply never arrives (the protocol's own limit for it is 5 minutes).
  sim.model.withheldReplies.add('restart node v2');
  const args = ['rolling-restart', '-c', sim.connectstring, '--allow-actions', '--allow-unchecked', '--yes', '--json', '--state-file', stateFile, '--poll-interval', '100'];
  const r = await runCli([...args, '--nodes', '2,3', '--order', 'node-id', '--leave-timeout', '3s', '--step-timeout', '12s'], {}, 90_000);
  assert.equal(r.code, EXIT.OK, r.stderr + r.stdout);
  const events = lines(r.stdout);
  const notes = ofKind(events, 'note').map((e) => String(e['text']));
  assert.equal(notes.length, 2, notes.join('\n'));
  notes.forEach((text, i) => assert.match(text, new RegExp(`^no reply to the restart came in \\d+ s, but node ${i + 2} went down and is STARTED again: the step is done`)));
  assert.deepEqual(ofKind(events, 'started').map((e) => [e['nodes'], Number(e['durationMs']) < 12_000]), [[[2], true], [[3], true]]);
  assert.deepEqual(events.at(-1), { ...events.at(-1), event: 'done', restarted: [2, 3], skipped: [] });
  assert.deepEqual([2, 3, 4, 5].map((id) => witness.stopCount(id)), [1, 1, 0, 0]);
});

test('no reply and the node stuck starting: "waiting" lines say for what, and the step halts at --step-timeout saying the reply never came', async (t) => {
  const { sim, stateFile } = await cluster(t, 20);
  sim.model.withheldReplies.add('restart node v2');
  sim.model.stalledStarts.set(2, 3);
  const args = ['rolling-restart', '-c', sim.connectstring, '--allow-actions', '--allow-unchecked', '--yes', '--json', '--state-file', stateFile, '--poll-interval', '100'];
  // Far shorter than the 300 s a restart reply used to be waited for: the command must be over well within it.
  const r = await runCli([...args, '--nodes', '2', '--leave-timeout', '3s', '--step-timeout', '8s'], {}, 60_000);
  assert.equal(r.code, EXIT.HALTED, r.stderr + r.stdout);
  const events = lines(r.stdout);
  const waiting = ofKind(events, 'waiting').map((e) => String(e['text']));
  assert.ok(waiting.length > 0, r.stdout);
  assert.match(waiting.at(-1) ?? '', /^waiting for node 2 to go down and come back STARTED \(now node 2 STARTING \(phase 3\)\) and for the reply to the restart \(none yet, \d+ s after sending it\): \d+ s of the step timeout \(8 s\)$/);
  const halted = ofKind(events, 'halted')[0];
  assert.equal(halted?.['code'], 'timeout');
  // The request's own deadline is the step's: whichever of it and the next poll comes first, the reason says the reply never came.
  assert.match(
    String(halted?.['reason']),
    /^the step has not completed within 8 s of its restart: node 2 STARTING \(phase 3\); the (management server never answered the restart \(the request is given up\)|reply to the restart was lost \(no reply within 8 s\))$/,
  );
  assert.ok(elapsed(ofKind(events, 'restarting')[0], halted) >= 8000, 'not before the step timeout');
});

test('the management server killed mid-step: the halt says it could not be reached (exit 8), not that the node never left STARTED', async (t) => {
  // Speed 5: the restart runs long enough on the server for the kill to land in it.
  const { sim, stateFile } = await cluster(t, 5);
  const args = ['rolling-restart', '-c', sim.connectstring, '--allow-actions', '--allow-unchecked', '--yes', '--json', '--state-file', stateFile, '--poll-interval', '100', '--timeout', '1000'];
  const child = spawnCli([...args, '--nodes', '2', '--leave-timeout', '3s', '--step-timeout', '12s']);
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  const code = new Promise<number | null>((resolve) => child.on('close', resolve));
  await new Promise<void>((resolve, reject) => {
    const off = sim.model.onStatusChange((n) => {
      if (n.id !== 2 || n.status === 'STARTED') return;
      off();
      void sim.stopMgmd(1).then(resolve);
    });
    void code.then(() => reject(new Error(`ended before restarting: ${out}`)));
  });
  assert.equal(await code, EXIT.HALTED, out);
  const halted = ofKind(lines(out), 'halted')[0];
  assert.equal(halted?.['code'], 'unreachable', out);
  assert.match(String(halted?.['reason']), /^could not reach the management server \(.+\) when the (leave|step) timeout \((3|12) s\) passed: whether node 2 restarted and came back cannot be told$/);
  assert.doesNotMatch(out, /never left STARTED/);
});
