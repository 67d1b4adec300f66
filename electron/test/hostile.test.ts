import assert from 'node:assert/strict';
import { once } from 'node:events';
import { test } from 'node:test';
import { HostileServer } from '../../native-mgm/test/hostile/hostile-server.js';
import { EXIT } from '../cli/exit-codes.js';
import { spawnCli } from '../cli/test/run-cli.js';
import { fuzz, report } from './hostile/harness.js';
import { cliTarget, engineInProcess, eventsInProcess, showInProcess } from './hostile/targets.js';

/**
 * A hostile management server against show, events, config and the engine (issue 12): 0 crashes, 0 hangs past the
 * timeout, only the documented exit codes (docs/commands.md), bounded memory. CI runs a few hundred cases; `npm run fuzz` runs 100,000.
 */
const MB = 1024 * 1024;

test('hostile server vs show, events and the engine in-process: every behaviour, then mutated replies', { timeout: 600_000 }, async () => {
  const s = await fuzz({ cases: 300, targets: [showInProcess, eventsInProcess(200), engineInProcess(300)], timeoutMs: 500, concurrency: 6, seed: 7, everyBehaviourFirst: true });
  console.log(report(s));
  assert.equal(s.cases, 300);
  assert.deepEqual(s.findings, []);
  assert.ok(s.worstRssInProcess < 1024 * MB, `worst RSS ${s.worstRssInProcess / MB} MB`);
});

// Every CLI command that talks to a management server; one added later joins this list.
const COMMANDS = [['show', '--json'], ['events'], ['config', '--json']];

test('hostile server vs the CLI commands in their own processes: documented exit codes, no hang, bounded RSS', { timeout: 600_000 }, async () => {
  const targets = COMMANDS.map((argv) => cliTarget(argv, argv[0] === 'events' ? 2000 : undefined));
  const s = await fuzz({ cases: 9 * targets.length, targets, timeoutMs: 1000, concurrency: 3, seed: 8, everyBehaviourFirst: true });
  console.log(report(s));
  assert.deepEqual(s.findings, []);
  assert.ok(s.worstRssChild > 0 && s.worstRssChild < 512 * MB, `worst CLI RSS ${s.worstRssChild / MB} MB`);
});

test('events interrupted while still connecting (a server that never answers) stops cleanly with exit 0', { timeout: 120_000 }, async (t) => {
  const server = new HostileServer();
  await server.start();
  t.after(() => server.close());
  server.use({ behaviour: 'accept-never-answer', seed: 1 });
  const child = spawnCli(['events', '-c', server.connectstring, '--timeout', '600000']);
  let stderr = '';
  await new Promise<void>((resolve) =>
    child.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (stderr.includes('connecting to')) resolve();
    }),
  );
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const [code, signal] = (await exited) as [number | null, NodeJS.Signals | null];
  assert.deepEqual({ code, signal }, { code: EXIT.OK, signal: null }, stderr);
});
