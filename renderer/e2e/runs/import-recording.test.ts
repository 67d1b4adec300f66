import assert from 'node:assert/strict';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { recordingWithRun } from '../../../electron/engine/test/recording-fixture.js';
import { NO_BROWSER, browserSuite, startStack, waitInPage } from '../harness.js';
import { IMPORT_INPUT, IMPORTED_ROWS, importProgress, recordImportProgress, throttleUploads } from '../recording-import.js';

const skip = NO_BROWSER ?? false;
if (NO_BROWSER) console.log(`# renderer e2e skipped: ${NO_BROWSER}`);
const chromium = browserSuite();

const MIB = 1024 * 1024;

/** The imported rows as the page shows them: name cell text and the marker's text. */
async function importedRows(page: Page): Promise<{ id: string; text: string; marker: string }[]> {
  return (await page.evaluate(`[...document.querySelectorAll('[data-testid="run-row"][data-imported="true"]')].map((row) => ({
    id: row.dataset.runId,
    text: row.children[1].textContent,
    marker: row.querySelector('[data-testid="run-imported"]')?.textContent ?? '',
  }))`)) as { id: string; text: string; marker: string }[];
}

test('Runs view: a recording over 1 MiB imported through the page with a moving progress bar, twice under distinct names, kept over a reload; a file that is no recording is a clear error', { skip }, async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ndbtop-import-e2e-'));
  const file = join(dir, 'rec.jsonl');
  const notes = join(dir, 'notes.txt');
  await recordingWithRun(file);
  await writeFile(notes, 'these are my notes, not a recording\n');
  const size = (await stat(file)).size;
  assert.ok(size > MIB, `${size} bytes`);
  const stack = await startStack(chromium().dir);
  const page = await chromium().browser.newPage({ viewport: { width: 1280, height: 720 } });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  try {
    await page.goto(`${stack.url}#/runs`);
    await page.waitForSelector('[data-testid="run-controls"]', { timeout: 30_000 });
    // About 4 s for the file, so the bar has time to be seen moving.
    await throttleUploads(page, size / 4);
    await recordImportProgress(page);
    await page.setInputFiles(IMPORT_INPUT, file);
    await waitInPage(page, `${IMPORTED_ROWS} === 1`, 60_000);
    const steps = await importProgress(page);
    const uploading = steps.filter((s) => s.stage === 'uploading');
    assert.ok(uploading.every((s) => s.max === size), `the bar's end is the file's size: ${JSON.stringify(uploading)}`);
    const between = uploading.filter((s) => s.value > 0 && s.value < size);
    assert.ok(between.length >= 2, `the upload bar moved through values between 0 and the size: ${JSON.stringify(steps)}`);
    assert.ok(between.every((s, i) => i === 0 || s.value > (between[i - 1] as { value: number }).value), 'and only forwards');
    // The server's reading of so small a file may come in the same response chunk as its runs (nothing to draw).
    const reading = steps.findIndex((s) => s.stage === 'reading');
    assert.ok(reading === -1 || steps.slice(reading).every((s) => s.stage === 'reading'), `reading comes after the upload: ${JSON.stringify(steps)}`);
    await waitInPage(page, `document.querySelector('[data-testid="import-progress"]') === null`);

    // The same file again: the browser gives the input a change only if its value was cleared after the first pick.
    await page.setInputFiles(IMPORT_INPUT, file);
    await waitInPage(page, `${IMPORTED_ROWS} === 2`, 60_000);
    const rows = await importedRows(page);
    assert.deepEqual(rows.map((r) => r.marker.trim()).sort(), ['· imported from rec.jsonl', '· imported from rec.jsonl']);
    const names = rows.map((r) => r.text.replace(r.marker, '')).sort();
    assert.deepEqual(names, ['A', 'A (rec.jsonl)'], 'two imports of a run named alike keep distinct names');
    const kept = await stack.engine.handlers.listImportedRuns({});
    assert.deepEqual(kept.map((r) => r.id).sort(), rows.map((r) => r.id).sort(), 'the engine keeps what the page shows');

    await page.reload();
    await page.waitForSelector('[data-testid="run-controls"]', { timeout: 30_000 });
    await waitInPage(page, `${IMPORTED_ROWS} === 2`, 30_000);
    assert.deepEqual((await importedRows(page)).map((r) => r.text).sort(), rows.map((r) => r.text).sort(), 'a reloaded page lists them again');

    await page.setInputFiles(IMPORT_INPUT, notes);
    await waitInPage(page, `document.querySelector('.nav-error')?.textContent?.includes('notes.txt') === true`, 30_000);
    const error = await page.textContent('.nav-error');
    assert.match(error ?? '', /^import notes\.txt: .*not an ndbtop recording/);
    assert.equal(await page.evaluate(IMPORTED_ROWS), 2, 'nothing imported from it');
    assert.deepEqual(errors, [], 'the page threw');
  } finally {
    await page.close();
    await stack.close();
    await rm(dir, { recursive: true, force: true });
  }
});
