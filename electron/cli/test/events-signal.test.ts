import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ScriptedServer, mgmdScript } from '../../../native-mgm/client/test/scripted-server.js';
import { SPEC_REPLIES } from '../../../native-mgm/test/fixtures/spec-transcripts.js';
import { EXIT } from '../exit-codes.js';
import { spawnCli } from './run-cli.js';

// Issue 24 item 3: a SIGINT in the moments after `events` printed a fatal subscribe error killed it (status
// 130) instead of letting it exit with that error's code.

interface Ending {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

/**
 * Runs `events` against a server that refuses the subscription; from `delayMs` after the error line appears,
 * SIGINT is sent every 2 ms until the process is gone, so both the first signal and any later one during its
 * exit meet it at a chosen moment.
 */
function interruptAfterError(port: number, delayMs: number): Promise<Ending> {
  const child = spawnCli(['events', '-c', `127.0.0.1:${port}`]);
  let stderr = '';
  let barrage: NodeJS.Timeout | null = null;
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
    if (barrage === null && /Unknown category/.test(stderr)) {
      barrage = setTimeout(() => {
        barrage = setInterval(() => child.kill('SIGINT'), 2);
      }, delayMs);
    }
  });
  return new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      if (barrage) clearInterval(barrage);
      resolve({ code, signal, stderr });
    });
  });
}

test('events: SIGINT after a fatal subscribe error never changes its exit code', { timeout: 120_000 }, async (t) => {
  const server = await ScriptedServer.start(mgmdScript(1, (req) => (req.command === 'listen event' ? SPEC_REPLIES.listenEventUnknownCategory : undefined)));
  t.after(() => server.close());
  for (const delayMs of [0, 5, 20, 50, 100]) {
    const ending = await interruptAfterError(server.port, delayMs);
    assert.equal(ending.signal, null, `killed by ${ending.signal} with SIGINT from ${delayMs} ms after the error; stderr: ${ending.stderr}`);
    // A refused filter is the server refusing the command.
    assert.equal(ending.code, EXIT.COMMAND_FAILED, `SIGINT from ${delayMs} ms after the error; stderr: ${ending.stderr}`);
    assert.match(ending.stderr, /ndbtop: listen event: Unknown category: >WARNING<\n$/);
  }
});
