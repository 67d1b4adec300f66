import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { STEADY_RATES } from '../../../native-mgm/sim/index.js';
import { createEngine } from '../create-engine.js';
import { sourcePath } from '../../../scripts/test-source.js';
import { newestReportAt, waitFor } from './helpers.js';

/** Cluster transactions/s the engine shows for a steady simulator at `speed`, over a full report period. */
async function transactionsAt(speed: number): Promise<number> {
  const engine = await createEngine({ host: 'serve', simulator: { scenario: 'steady', dataNodes: 2, speed } });
  const started = Date.now();
  try {
    // Two periods of sim time after start (10 s / speed real): every instance's first, partial report is out of the window.
    await waitFor('a full window of statistics', async () => (await newestReportAt(engine)) > started + 11_000 / speed, 30_000);
    const rates = (await engine.handlers.getSnapshot({})).rates;
    assert.ok(rates, `a cluster total at speed ${speed}`);
    return rates.transactions;
  } finally {
    await engine.close();
  }
}

test('simulator --speed: time runs X times faster, the rates shown are the simulated cluster\'s at any speed, as the README says', async () => {
  // Reports come X times as often, each covering one 5 s period of sim time: per second of the cluster's own time
  // the figures are the load profile's, so a scenario unfolds faster without its numbers changing.
  const [one, four] = [await transactionsAt(1), await transactionsAt(4)];
  for (const [speed, tps] of [[1, one], [4, four]] as const) {
    assert.ok(Math.abs(tps - STEADY_RATES.transPerSec) <= STEADY_RATES.transPerSec * 0.2, `speed ${speed}: ${tps} tx/s vs ${STEADY_RATES.transPerSec}`);
  }
  const readme = await readFile(sourcePath(new URL('../../../README.md', import.meta.url)), 'utf8');
  const said = readme.split('\n\n').filter((p) => /--speed X/.test(p) && /rates/.test(p));
  assert.ok(said.length > 0, 'the README says what --speed does to the rates');
  for (const p of said) assert.doesNotMatch(p, /rates are X times faster/, 'the README must not promise X-times rates');
  assert.ok(said.some((p) => /same (per-second )?rates/.test(p)), 'the README says the rates stay the same');
});
