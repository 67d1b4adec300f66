/**
 * The Runs view importing a recording over a slow link (Chromium's throttling), at each size: the progress bar
 * mid-upload, then the imported runs (the file imported twice, so both names show). Part of scripts/screenshots/screenshots.ts.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { recordingWithRun } from '../../electron/engine/test/recording-fixture.js';
import { startStack, waitInPage } from '../../renderer/e2e/harness.js';
import { IMPORT_INPUT, IMPORTED_ROWS, throttleUploads } from '../../renderer/e2e/recording-import.js';

export async function importScreens(browser: Browser, staticDir: string, sizes: readonly { width: number; height: number }[], shoot: (page: Page, name: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'ndbtop-import-screens-'));
  const file = join(dir, 'steady-2-nodes.jsonl');
  const stack = await startStack(staticDir);
  try {
    await recordingWithRun(file);
    const size = (await stat(file)).size;
    for (const viewport of sizes) {
      const page = await browser.newPage({ viewport, colorScheme: 'dark' });
      const prefix = `import-${viewport.width}x${viewport.height}`;
      await page.goto(`${stack.url}#/runs`);
      await page.waitForSelector('[data-testid="run-controls"]', { timeout: 30_000 });
      await throttleUploads(page, size / 6);
      const before = Number(await page.evaluate(IMPORTED_ROWS));
      await page.setInputFiles(IMPORT_INPUT, file);
      await waitInPage(page, `Number(document.querySelector('[data-testid="import-progress"] progress')?.value) > ${size / 3}`, 30_000);
      await shoot(page, `${prefix}-uploading`);
      await waitInPage(page, `${IMPORTED_ROWS} === ${before + 1}`, 60_000);
      await page.setInputFiles(IMPORT_INPUT, file);
      await waitInPage(page, `${IMPORTED_ROWS} === ${before + 2}`, 60_000);
      await shoot(page, `${prefix}-done`);
      await page.close();
    }
  } finally {
    await stack.close();
    await rm(dir, { recursive: true, force: true });
  }
}
