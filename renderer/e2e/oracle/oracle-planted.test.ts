import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { NO_BROWSER, browserSuite } from '../harness.js';
import { waitFor } from '../../../electron/engine/test/helpers.js';
import { readSnapshot } from './capture.js';
import { INVARIANTS } from './invariants.js';
import { describe, runOracle, type OracleReport, type OracleRun } from './run-oracle.js';

const skip = NO_BROWSER ?? false;
const suite = browserSuite();

/** Keeps rewriting what the page shows, however often React renders it again: a panel that contradicts the rest. */
function keepRewriting(page: Page, body: string): Promise<unknown> {
  return page.evaluate(`(() => {
    const rewrite = () => { ${body} };
    new MutationObserver(rewrite).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    rewrite();
  })()`);
}

/** The oracle over `scenario` at 4 data nodes, 4 frames at speed 3, the page rewritten by `body` all along (`more` changes the run). */
function planted(scenario: OracleRun['scenario'], body: string, more: Partial<OracleRun> = {}): Promise<OracleReport> {
  const { dir, browser } = suite();
  return runOracle(browser, dir, { scenario, dataNodes: 4, seconds: 4, speed: 3, plant: (_stack, page) => keepRewriting(page, body), ...more });
}

test('a card that says another status than the engine makes the oracle fail, with the second, both statements and a screenshot', { skip }, async () => {
  // Every frame on the grid: under load the first frame can come before the grid has drawn, so one view per frame leaves too few.
  const report = await planted('steady', `const c = document.querySelector('[data-testid="node-3"]'); if (c && c.dataset.status !== 'NO_CONTACT') c.dataset.status = 'NO_CONTACT';`, { views: ['nodes'] });
  const found = report.findings.filter((f) => f.invariant === 'node-status-agrees');
  assert.ok(found.length >= 2, `caught on the nodes view's frames: ${report.findings.map(describe).join('\n')}`);
  const first = found[0];
  assert.ok(first);
  assert.equal(first.said, 'node card 3: NO_CONTACT');
  assert.equal(first.against, 'engine snapshot: STARTED');
  assert.ok(existsSync(first.screenshot), first.screenshot);
  assert.match(describe(first), /^\[oracle\] steady @ 4 data nodes, second \d+: node-status-agrees\n {2}one says: {3}node card 3: NO_CONTACT\n {2}other says: engine snapshot: STARTED\n {2}screenshot: \S+\.png$/);
});

test('a figure drawn without its unit makes the oracle fail; the catalogue given is the only one checked', { skip }, async () => {
  const { dir, browser } = suite();
  const units = INVARIANTS.filter((i) => i.id === 'numbers-have-units');
  const report = await runOracle(browser, dir, {
    scenario: 'steady',
    dataNodes: 4,
    seconds: 4,
    speed: 3,
    invariants: units,
    plant: (_stack, page) => keepRewriting(page, `for (const e of document.querySelectorAll('[data-testid="spark-value"]')) if (/\\/s/.test(e.textContent)) e.textContent = e.textContent.replace('/s', '');`),
  });
  assert.ok(report.findings.length > 0, 'the bare figures were caught');
  assert.deepEqual([...new Set(report.findings.map((f) => f.invariant))], ['numbers-have-units']);
  assert.match(report.findings[0]?.said ?? '', /^node rate: "/);
});

test('a banner that keeps the redo log\'s peak once it has fallen makes the oracle fail', { skip }, async () => {
  const { dir, browser } = suite();
  const report = await runOracle(browser, dir, {
    scenario: 'redo-pressure',
    dataNodes: 4,
    seconds: 10,
    speed: 3,
    invariants: INVARIANTS.filter((i) => i.id === 'alert-states-present'),
    // From the first redo alert on (the SQL source's first readings and the raise take their own time), the row keeps the peak.
    plant: async (stack, page) => {
      await waitFor('a redo alert', async () => (await readSnapshot(stack)).alerts.some((a) => a.kind.startsWith('log-fill') && a.resolvedAt === null), 90_000);
      await keepRewriting(page, `for (const e of document.querySelectorAll('[data-kind^="log-fill"] .alert-msg')) if (e.textContent !== 'redo log 96 % full on 4 of 4 data nodes') e.textContent = 'redo log 96 % full on 4 of 4 data nodes';`);
    },
  });
  const found = report.findings.find((f) => f.said.startsWith('banner row (log-fill'));
  assert.ok(found, `caught: ${report.findings.map(describe).join('\n')}`);
  // Warning or critical, whichever mark the fill had reached when the frames began.
  assert.match(found.said, /^banner row \(log-fill-(high|critical)\): "redo log 96 % full on 4 of 4 data nodes"$/);
  assert.match(found.against, /^its data nodes now at \d+\.\d %/);
  // The engine's own alerts say the level now: only the planted row contradicts it.
  assert.deepEqual(report.findings.filter((f) => !f.said.startsWith('banner row')).map(describe), []);
});

test('a Backups view row that misstates a node\'s bytes written makes the oracle fail', { skip }, async () => {
  const report = await planted('backup', `for (const e of document.querySelectorAll('[data-testid="backup-nodes"] tbody tr td:nth-child(2)')) if (e.textContent !== '999 GiB') e.textContent = '999 GiB';`, {
    seconds: 6,
    views: ['backups'],
    invariants: INVARIANTS.filter((i) => i.id === 'backup-shows-engine'),
  });
  const found = report.findings.find((f) => /^Backups view: node \d+: 999 GiB of /.test(f.said));
  assert.ok(found, `caught: ${report.findings.map(describe).join('\n')}`);
  assert.match(found.against, /^engine: \d+ B of \d+ B, \d+ records/);
});
