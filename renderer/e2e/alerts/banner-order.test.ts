import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import type { ClusterSnapshot } from '../../../electron/contract/index.js';
import { NO_BROWSER, browserSuite, valueInPage, withStackPage } from '../harness.js';

const skip = NO_BROWSER ?? false;
const suite = browserSuite();

/** The alert row an operator sees in the strip: the one drawn at the middle of its one-row box, not only the DOM's first. */
const SHOWN = `(() => {
  const box = document.querySelector('[data-testid="alert-rows"]')?.getBoundingClientRect();
  if (!box) return null;
  const row = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2)?.closest('[data-severity]');
  return row ? row.dataset.kind + ' ' + row.dataset.severity : null;
})()`;

async function shownOnce(page: Page, expected: string): Promise<string> {
  return valueInPage<string>(page, `(${SHOWN}) === ${JSON.stringify(expected)} && (${SHOWN})`, 60_000).catch(async (err: unknown) => {
    throw new Error(`${String(err)}\n  the strip shows: ${String(await page.evaluate(SHOWN))}`);
  });
}

test('on a page already open, a critical alert raised behind an older warning takes the banner at once', { skip }, async () => {
  const options = { simulator: { scenario: 'steady' as const, dataNodes: 2, mgmNodes: 2 } };
  await withStackPage(suite, options, { width: 1280, height: 720 }, async (page, stack) => {
    const snapshot = (await (await fetch(new URL('/api/snapshot', stack.url))).json()) as ClusterSnapshot;
    const inUse = snapshot.connection.mgmd?.nodeId;
    const other = snapshot.nodes.find((n) => n.type === 'MGM' && n.nodeId !== inUse)?.nodeId;
    assert.ok(inUse != null && other !== undefined, 'two management servers, one in use');
    await stack.simulator.stopMgmd(other);
    await shownOnce(page, 'mgmd-down warning');
    await stack.simulator.stopMgmd(inUse);
    await shownOnce(page, 'mgmd-lost critical');
    // It stays there: nothing newer and as severe comes, so the next seconds' pushes must not bring the warning back.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    assert.equal(await page.evaluate(SHOWN), 'mgmd-lost critical');
    assert.ok(Number(await page.getAttribute('[data-testid="alerts"]', 'data-active')) >= 2, 'the warning is still active behind it');
  });
});
