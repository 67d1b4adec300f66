import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NO_BROWSER, browserSuite, withStackPage } from '../harness.js';

const skip = NO_BROWSER ?? false;
const suite = browserSuite();

test('at 1280×720 an alert banner is one line however long its message; the whole message is behind "Details"', { skip }, async () => {
  const options = { simulator: { scenario: 'collapse' as const, dataNodes: 2, speed: 8 }, collapse: { dropShare: 0.5, windowMs: 4000 } };
  await withStackPage(suite, options, { width: 1280, height: 720 }, async (page) => {
    const row = page.locator('[data-testid="alert"][data-kind="throughput-collapse"]').first();
    await row.waitFor({ timeout: 90_000 });
    const { rowHeight, lineHeight, message } = await row.evaluate((el) => {
      const msg = el.querySelector('.alert-msg') as HTMLElement;
      return { rowHeight: el.getBoundingClientRect().height, lineHeight: parseFloat(getComputedStyle(msg).lineHeight) || 24, message: msg.textContent ?? '' };
    });
    assert.ok(message.length > 150, `a long message: ${message}`);
    assert.ok(rowHeight < 2 * lineHeight, `one line: the row is ${rowHeight} px, a line ${lineHeight} px`);
    await row.locator('[data-testid="alert-details-toggle"]').click();
    const details = page.locator('[data-testid="alert-details"]').first();
    assert.equal(await details.textContent(), message, 'Details shows the whole message');
  });
});
