import assert from 'node:assert/strict';
import { copyFile, mkdir } from 'node:fs/promises';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { VIEWS, viewKey } from '../../src/store/ui-slice.js';
import { NO_BROWSER, browserSuite, screenshot, waitInPage, withStackPage } from '../harness.js';

const skip = NO_BROWSER ?? false;
const suite = browserSuite();
const SHOTS = '/work/shots/backup';
// ndbinfo's disk write speeds every 300 ms, so the backup's writes show beside its own figures at once.
const FAST = { intervals: { diskWriteSpeed: 300 }, loadEveryMs: 300, connectTimeoutMs: 2000, queryTimeoutMs: 2000 };

/** Kept beside the other helpers' shots for the lead to look at, when that folder can be made. */
async function shot(page: Page, name: string): Promise<void> {
  const path = await screenshot(page, name);
  await mkdir(SHOTS, { recursive: true }).then(() => copyFile(path, `${SHOTS}/${name}.png`)).catch(() => undefined);
}

test('Backups view (key b): a backup started from the actions menu names each node\'s directory, shows per-node progress, rate and ETA, then lands in the past list; a slower one raises backup-slow; screenshots', { skip }, async () => {
  assert.equal(viewKey(VIEWS.indexOf('backups')), 'b');
  await withStackPage(suite, { simulator: { scenario: 'idle', dataNodes: 4, replicas: 2, speed: 1 }, sqlWatch: FAST, actionsEnabled: true, pollIntervalMs: 250, memoryRefreshMs: 1000 }, { width: 1280, height: 720 }, async (page, stack) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForSelector('[data-testid^="node-"][data-status="STARTED"]', { timeout: 30_000 });
    await page.keyboard.press('b');
    await page.waitForSelector('[data-testid="backup-none"]');

    await page.click('[data-testid="cluster-actions-toggle"]');
    await page.click('[data-testid="cluster-actions-menu"] button:has-text("Start backup")');
    await page.waitForSelector('[data-testid="action-consequences"]');
    const consequences = (await page.textContent('[data-testid="action-consequences"]')) ?? '';
    assert.match(consequences, /\/var\/lib\/mysql-cluster\/ndbd2\/BACKUP\/BACKUP-<id> on node 2; .*ndbd5\/BACKUP\/BACKUP-<id> on node 5 \(on its own host\)/);
    await page.click('[data-testid="action-confirm"]');
    await page.waitForSelector('[data-testid="action-result"][data-ok="true"]');
    await page.click('[data-testid="action-cancel"]');

    await waitInPage(page, `document.querySelectorAll('[data-testid="backup-nodes"] tbody tr').length === 4`, 20_000);
    await waitInPage(page, `/^ends in /.test(document.querySelector('[data-field="eta"]')?.textContent ?? '')`, 20_000);
    assert.match((await page.textContent('[data-field="rate"]')) ?? '', /^\d+(\.\d)? [kMG]?B\/s$/);
    assert.match((await page.textContent('[data-field="written"]')) ?? '', /^\S+ \S+ of about \S+ \S+ · [\d,]+ records$/);
    // The backup's own writes (about 20 MiB/s a node, MaxDiskWriteSpeed) in ndbinfo's backup_lcp write speed.
    await waitInPage(page, `[...document.querySelectorAll('[data-field="disk-write"]')].length === 4 && [...document.querySelectorAll('[data-field="disk-write"]')].every((c) => / MB\\/s$/.test(c.textContent) && parseFloat(c.textContent) >= 15)`, 20_000);
    await shot(page, 'backups-1280-dark-running');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await shot(page, 'backups-1920-dark-running');

    await waitInPage(page, `document.querySelector('[data-testid="backup-past"] tr[data-backup="1"]') !== null`, 60_000);
    assert.equal(await page.textContent('[data-testid="backup-past"] tr[data-backup="1"] td:nth-child(2)'), 'completed');
    await page.waitForSelector('[data-testid="backup-none"]');

    // Busy disks: the second backup writes at 40 % of the first one's rate.
    const slow = stack.simulator.model.backups.start(0, { speedFactor: 0.4 });
    assert.ok(!('error' in slow));
    await waitInPage(page, `document.querySelector('[data-testid^="alert"][data-kind="backup-slow"]') !== null`, 30_000);
    await waitInPage(page, `document.querySelectorAll('[data-testid="backup-nodes"] tbody tr').length === 4`);
    await page.emulateMedia({ colorScheme: 'light' });
    await shot(page, 'backups-1920-light-slow');
    await page.setViewportSize({ width: 1280, height: 720 });
    await shot(page, 'backups-1280-light-slow');
    stack.simulator.model.backups.abort(slow.id);
    await waitInPage(page, `document.querySelector('[data-testid="backup-past"] tr[data-backup="2"] td.tone-bad')?.textContent === 'aborted (error 1321)'`, 20_000);
    await waitInPage(page, `document.querySelector('[data-testid^="alert"][data-kind="backup-slow"]') === null`);
    await shot(page, 'backups-1280-light-past');
  });
});
