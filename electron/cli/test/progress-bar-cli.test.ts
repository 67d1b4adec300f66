import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { recordingWithRun } from '../../engine/test/recording-fixture.js';
import { CLI_ARGS, runCli } from './run-cli.js';

let dir = '';
let file = '';
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ndbtop-bar-'));
  file = join(dir, 'rec.jsonl');
  await recordingWithRun(file);
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

/**
 * The CLI on a real pseudo-terminal (util-linux `script`), its output until `until` shows up (then it is stopped)
 * or it exits.
 */
function onTerminal(args: string[], until: RegExp): Promise<string> {
  const command = [process.execPath, ...CLI_ARGS, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
  const child = spawn('script', ['-qfec', command, '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      process.kill(-(child.pid ?? 0), 'SIGKILL');
      reject(new Error(`no ${until} on the terminal: ${JSON.stringify(out)}`));
    }, 60_000);
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (until.test(out)) process.kill(-(child.pid ?? 0), 'SIGTERM');
    });
    child.on('close', () => {
      clearTimeout(timer);
      resolve(out);
    });
  });
}

/** What the bar writes: carriage return, the bar, erase to the end of the line (ESC [ K). */
const ERASE = `${String.fromCharCode(27)}[K`;
const BAR = new RegExp(String.raw`\r(replay )?rec\.jsonl \[[#·]{30}\] +\d+ % +[\d.]+ MB of [\d.]+ MB` + ERASE.replace('[', '\\['), 'g');

test('report and replay draw a progress bar on a terminal, erased before what follows, and none into a pipe', { timeout: 120_000 }, async () => {
  const report = await onTerminal(['report', file, '--format', 'json'], /"runs"[\s\S]*\}\s*$/);
  const reportBars = [...report.matchAll(BAR)].map((m) => m[0]);
  assert.ok(reportBars.length >= 1 && reportBars.at(-1)?.includes('100 %'), `report's bar reaches 100 %: ${JSON.stringify(report)}`);
  assert.ok(report.includes(`\r${ERASE}{`), 'erased before the report is printed');

  const replay = await onTerminal(['replay', file, '--port', '0', '--speed', '1000'], /recording played/);
  const replayBars = [...replay.matchAll(BAR)].map((m) => m[0]);
  assert.ok(replayBars.length >= 2, `replay's bar is drawn as it plays: ${JSON.stringify(replay)}`);
  assert.ok(replayBars.every((b) => b.startsWith('\rreplay rec.jsonl')));
  assert.ok(replay.indexOf('listening on') < replay.indexOf(replayBars[0] as string), 'after the banner');
  assert.ok(replay.includes(`\r${ERASE}ndbtop replay: recording played`), 'erased before the line that says it is over');

  const piped = await runCli(['report', file, '--format', 'json']);
  assert.equal(piped.code, 0, piped.stderr);
  assert.ok(!piped.stderr.includes('\r') && !piped.stdout.includes('\r'), 'a pipe gets no bar');
});
