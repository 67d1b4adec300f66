import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { EXIT } from '../exit-codes.js';
import { runCli, spawnCli } from './run-cli.js';
import { cluster } from './rolling-cluster.js';

type Line = Record<string, unknown>;
const lines = (stdout: string): Line[] => stdout.trim().split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Line);

/** The cluster of `rolling-cluster.ts` and the command for node 2 alone, on its state file. */
async function nodeTwo(t: TestContext, speed: number) {
  const { sim, witness, stateFile } = await cluster(t, speed);
  return { sim, witness, args: ['rolling-restart', '-c', sim.connectstring, '--allow-actions', '--json', '--state-file', stateFile, '--poll-interval', '100', '--nodes', '2'] };
}

/** The CLI run to its end, `onLine` told each JSON line as it comes (to change the cluster at a chosen moment). */
async function runWatching(args: string[], onLine: (line: Line) => void): Promise<{ code: number | null; out: Line[]; stderr: string }> {
  const child = spawnCli(args);
  let out = '';
  let stderr = '';
  let seen = 0;
  child.stdout?.on('data', (d: Buffer) => {
    out += d.toString();
    const complete = out.split('\n').slice(0, -1);
    for (const l of complete.slice(seen)) if (l !== '') onLine(JSON.parse(l) as Line);
    seen = complete.length;
  });
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, out: lines(out), stderr };
}

const checkOf = (line: Line | undefined, name: string): Line | undefined => (line?.['checks'] as Line[] | undefined)?.find((c) => c['check'] === name);

test('a check that cannot be made halts the CLI, said as such, nothing sent; --allow-unchecked lets the step go and says it was not checked', async (t) => {
  const { witness, args } = await nodeTwo(t, 10);
  const halted = await runCli([...args, '--yes']);
  assert.equal(halted.code, EXIT.HALTED, halted.stderr);
  const h = lines(halted.stdout).find((e) => e['event'] === 'halted');
  assert.match(String(h?.['reason']), /the redo log fill cannot be checked \(the redo log fill is read from ndbinfo, which this port does not read \(--mark-url an ndbtop that has an SQL source\)\): halting is the safe side/);
  assert.equal(witness.stops.size, 0, 'nothing was restarted');
  const again = await runCli([...args, '--resume']);
  assert.equal(again.code, EXIT.HALTED, 'a resume keeps the settings the plan was made with');
  const allowed = await runCli([...args, '--resume', '--allow-unchecked'], {}, 60_000);
  assert.equal(allowed.code, EXIT.OK, allowed.stderr);
  const redo = checkOf(lines(allowed.stdout).find((e) => e['event'] === 'checked'), 'redo');
  assert.deepEqual([redo?.['verdict'], redo?.['figure']], ['unchecked', null]);
  assert.match(String(redo?.['text']), /^the redo log fill not checked \(.*\): allowed by the operator$/);
  assert.equal(witness.stopCount(2), 1);
});

test('a backup running: the CLI waits, said once, and goes on when it ends, printing each check with its figure', async (t) => {
  // Speed 0.5: the simulated backup lasts 16 s, longer than the CLI takes to start.
  const { sim, witness, args } = await nodeTwo(t, 0.5);
  const started = sim.model.backups.start();
  assert.ok('started' in started);
  await started.started;
  const r = await runWatching([...args, '--yes', '--allow-unchecked'], () => undefined);
  assert.equal(r.code, EXIT.OK, r.stderr);
  const waits = r.out.filter((e) => e['event'] === 'waiting' && /backup/.test(String(e['text'])));
  assert.equal(waits.length, 1, `said once: ${JSON.stringify(waits)}`);
  // At the start the first global checkpoint may not have been seen yet either: the same line says so.
  assert.match(String(waits[0]?.['text']), new RegExp(`^backup ${started.id} is running: a data node restarted now makes it fail; waiting for it to end(; waiting for a global checkpoint to complete \\(none seen yet in [\\d.]+ s of watching\\))?$`));
  const checked = r.out.find((e) => e['event'] === 'checked');
  assert.deepEqual(checkOf(checked, 'backup'), { check: 'backup', verdict: 'pass', figure: 'none running', text: 'no backup running' });
  assert.equal(checkOf(checked, 'redo')?.['verdict'], 'unchecked');
  assert.equal(checkOf(checked, 'gcp')?.['verdict'], 'pass');
  assert.deepEqual(checkOf(checked, 'arbitrator'), { check: 'arbitrator', verdict: 'pass', figure: 'node 1', text: 'arbitrator node 1 (ArbitrationRank 1 in the configuration, connected)' });
  assert.ok(r.out.findIndex((e) => e['event'] === 'checked') > r.out.indexOf(waits[0] as Line), 'checked after the wait');
  assert.equal(r.out.at(-1)?.['event'], 'done');
  assert.equal(witness.stopCount(2), 1);
});

test('global checkpoints that stop completing halt the CLI with the lag; once they complete again, --resume goes on', async (t) => {
  const { sim, witness, args } = await nodeTwo(t, 10);
  sim.model.checkpoints.stall();
  const halted = await runCli([...args, '--yes', '--allow-unchecked', '--gcp-lag-limit', '2s']);
  assert.equal(halted.code, EXIT.HALTED, halted.stderr);
  const events = lines(halted.stdout);
  assert.match(String(events.find((e) => e['event'] === 'waiting')?.['text']), /^waiting for a global checkpoint to complete \(none seen yet in [\d.]+ s of watching\)$/);
  assert.match(String(events.find((e) => e['event'] === 'halted')?.['reason']), /^the global checkpoint lags: no global checkpoint completed in the [\d.]+ s its events were watched \(limit 2\.0 s\)$/);
  assert.equal(witness.stops.size, 0);
  sim.model.checkpoints.release();
  const resumed = await runCli([...args, '--resume'], {}, 60_000);
  assert.equal(resumed.code, EXIT.OK, resumed.stderr);
  assert.match(String(checkOf(lines(resumed.stdout).find((e) => e['event'] === 'checked'), 'gcp')?.['figure']), /^[\d.]+ s ago$/);
  assert.equal(witness.stopCount(2), 1);
});

test('the arbitrator gone (ArbitState "failed"): the CLI halts saying so; once one is chosen, --resume goes on', async (t) => {
  const { sim, witness, args } = await nodeTwo(t, 10);
  // Checkpoints held, so the CLI waits (its events watched) until the arbitrator is lost; then they complete again.
  sim.model.checkpoints.stall();
  const r = await runWatching([...args, '--yes', '--allow-unchecked', '--gcp-lag-limit', '60s'], (line) => {
    if (line['event'] !== 'waiting') return;
    sim.model.loseArbitrator();
    setTimeout(() => sim.model.checkpoints.release(), 300);
  });
  assert.equal(r.code, EXIT.HALTED, r.stderr);
  assert.match(String(r.out.find((e) => e['event'] === 'halted')?.['reason']), /^no arbitrator \(the last ArbitState \(code 32\) said the arbitrator failed or exited, and none was chosen since\)/);
  assert.equal(witness.stops.size, 0);
  sim.model.selectArbitrator();
  const resumed = await runCli([...args, '--resume'], {}, 60_000);
  assert.equal(resumed.code, EXIT.OK, resumed.stderr);
  assert.equal(checkOf(lines(resumed.stdout).find((e) => e['event'] === 'checked'), 'arbitrator')?.['verdict'], 'pass');
  assert.equal(witness.stopCount(2), 1);
});
