import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RedoLog } from '../activity/redo-log.js';
import { SIM_REDO } from '../config/sim-config.js';
import { ingestRedoBytesPerSec } from '../scenarios/redo-pressure.js';

const STEP_MS = 250;
const MiB = 1024 * 1024;

test('the redo log is as large as its configuration says, and never fills faster than the write rate over its size', () => {
  const log = new RedoLog({ NoOfFragmentLogParts: 4, NoOfFragmentLogFiles: 8, FragmentLogFileSize: 32 * MiB });
  assert.equal(log.total, 4 * 8 * 32 * MiB);
  const rate = 100 * MiB;
  let before = log.fill;
  let climbed = false;
  for (let t = 0; t < 60_000; t += STEP_MS) {
    log.advance(STEP_MS, rate, 1);
    const perSec = ((log.fill - before) * 1000) / STEP_MS;
    assert.ok(perSec <= rate / log.total + 1e-12, `at ${t} ms the fill climbed ${perSec}/s, more than ${rate / log.total}/s`);
    climbed ||= perSec > 0;
    before = log.fill;
  }
  assert.ok(climbed);
  assert.ok(log.lcpsCompleted > 0, 'checkpoints freed the log on the way');
});

test('redo-pressure fills the simulator\'s log over minutes: 80 % comes well before 90 %, and checkpoints free it on the way', () => {
  const log = new RedoLog(SIM_REDO);
  const rate = ingestRedoBytesPerSec(log.alertSpeed);
  const reached = new Map<number, number>();
  let freed = 0;
  for (let t = STEP_MS; t <= 600_000 && !reached.has(90); t += STEP_MS) {
    const before = log.fill;
    log.advance(STEP_MS, rate, 1);
    if (log.fill < before) freed += 1;
    for (const mark of [80, 90]) if (!reached.has(mark) && log.fill * 100 >= mark) reached.set(mark, t);
  }
  const [at80, at90] = [reached.get(80), reached.get(90)];
  assert.ok(at80 !== undefined && at90 !== undefined, 'the log reached 90 %');
  assert.ok(at80 >= 60_000, `80 % after ${at80} ms: a 4 GiB log takes minutes to fill`);
  assert.ok(at90 - at80 >= 10_000, `80 % at ${at80} ms, 90 % at ${at90} ms: the warning comes first, by more than a poll`);
  assert.ok(freed >= 3, 'checkpoints freed the log several times while it filled');
});
