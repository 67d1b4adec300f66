import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import type { ClusterSnapshot } from '../../../electron/contract/index.js';
import { startServeServer } from '../../../electron/serve/serve-server.js';
import { freePort } from '../../../native-mgm/test/free-port.js';
import { NO_BROWSER, browserSuite, startStack, waitInPage } from '../harness.js';

const skip = NO_BROWSER ?? false;

const suite = browserSuite();

const CARDS = '[data-testid="node-grid"] article[data-testid^="node-"]';

/** Every card's id, whether it shows as old, its safe-to-stop words, its last-seen line and whether its buttons can be pressed. */
async function cards(page: Page): Promise<Array<{ id: string; old: string; safe: string; seen: string; enabledButtons: number }>> {
  return page.$$eval(CARDS, (list) =>
    list.map((c) => ({
      id: c.getAttribute('data-testid') ?? '',
      old: c.getAttribute('data-old') ?? '',
      safe: c.querySelector('.safe')?.textContent ?? '',
      seen: c.querySelector('[data-testid="last-seen"]')?.textContent ?? '',
      enabledButtons: [...c.querySelectorAll('button')].filter((b) => !b.matches(':disabled')).length,
    })),
  );
}

/** Whether a card's status word is drawn grey: what an operator sees, not only a hook. */
const grey = `((c) => getComputedStyle(c.querySelector('.status-word')).filter === 'grayscale(1)')`;
const allOld = `[...document.querySelectorAll('${CARDS}')].every(${grey})`;
const noneOld = `[...document.querySelectorAll('${CARDS}')].length > 0 && ![...document.querySelectorAll('${CARDS}')].some(${grey})`;

test('management server gone: every card is greyed with its age, safe to stop is unknown, actions wait; all comes back with it', { skip }, async () => {
  const { dir, browser } = suite();
  const stack = await startStack(dir, { simulator: { scenario: 'steady', dataNodes: 4 }, actionsEnabled: true });
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  try {
    await page.goto(stack.url);
    await waitInPage(page, `[...document.querySelectorAll('${CARDS} .safe')].filter((s) => s.textContent === 'safe to stop').length === 4`, 60_000);
    await waitInPage(page, noneOld);
    const snapshot = (await (await fetch(new URL('/api/snapshot', stack.url))).json()) as ClusterSnapshot;
    const mgm = snapshot.nodes.find((n) => n.type === 'MGM');
    assert.ok(mgm);
    await stack.simulator.stopMgmd(mgm.nodeId);
    await waitInPage(page, allOld);
    // The engine says so too, for every client: no verdict, figures from the last poll.
    const after = (await (await fetch(new URL('/api/snapshot', stack.url))).json()) as ClusterSnapshot;
    for (const n of after.nodes) assert.ok(n.lastSeenAt != null, `node ${n.nodeId} has a last-seen time`);
    assert.ok(after.nodes.filter((n) => n.type === 'NDB').every((n) => n.safeToStop === null && n.rates?.stale !== false));
    await waitInPage(page, `[...document.querySelectorAll('${CARDS} [data-testid="last-seen"]')].every((s) => / ago\\)$/.test(s.textContent))`);
    const shown = await cards(page);
    for (const c of shown) {
      assert.match(c.seen, /^last seen \d\d:\d\d:\d\d \(\d+ s ago\)$/, `${c.id}: ${c.seen}`);
      assert.equal(c.enabledButtons, 0, `${c.id}: no action on old figures`);
    }
    assert.deepEqual(shown.filter((c) => c.safe !== '').map((c) => c.safe), ['safe to stop: unknown', 'safe to stop: unknown', 'safe to stop: unknown', 'safe to stop: unknown']);
    assert.equal(await page.$eval(`${CARDS}[data-testid="node-${mgm.nodeId}"]`, (c) => c.getAttribute('data-old')), 'true', 'the dead mgmd is not shown as current');
    // Node groups say what was last known, not that their nodes are live.
    const groupHeads = () => page.$$eval('[data-testid^="nodegroup-"]', (hs) => hs.map((h) => h.textContent ?? ''));
    for (const head of await groupHeads()) assert.match(head, /was OK.*2 of 2 were live$/, head);
    await stack.simulator.startMgmd(mgm.nodeId);
    await waitInPage(page, noneOld, 60_000);
    for (const head of await groupHeads()) assert.match(head, /group \d+OK2 of 2 live$/, head);
    await waitInPage(page, `[...document.querySelectorAll('${CARDS} .safe')].filter((s) => s.textContent === 'safe to stop').length === 4`, 30_000);
  } finally {
    await page.close();
    await stack.close();
  }
});

test('serve gone: the page greys every card with its age and disables actions until it hears the engine again', { skip }, async () => {
  const { dir, browser } = suite();
  // serve comes back on this port below: one no other test's bind(0) can take meanwhile.
  const stack = await startStack(dir, { simulator: { scenario: 'steady', dataNodes: 4 }, actionsEnabled: true }, undefined, { port: await freePort() });
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  try {
    await page.goto(stack.url);
    await waitInPage(page, noneOld, 60_000);
    assert.ok((await cards(page)).some((c) => c.enabledButtons > 0), 'actions while fresh');
    await stack.server.close();
    await waitInPage(page, allOld);
    const shown = await cards(page);
    for (const c of shown) {
      assert.match(c.seen, /^last seen \d\d:\d\d:\d\d \(\d+ s ago\)$/, `${c.id}: ${c.seen}`);
      assert.equal(c.enabledButtons, 0, `${c.id}: no action on old figures`);
    }
    // serve back on the same port: the page hears the engine again, and the figures and actions are live again.
    const again = await startServeServer({ engine: stack.engine, staticDir: dir, host: '127.0.0.1', port: Number(new URL(stack.url).port), allowChanges: true });
    try {
      await waitInPage(page, noneOld, 60_000);
      const back = await cards(page);
      assert.deepEqual(back.filter((c) => c.old !== 'false' || c.seen !== ''), [], 'no card shown as old or with a last-seen age');
      const dataNodes = back.filter((c) => c.safe !== '');
      assert.equal(dataNodes.length, 4);
      assert.ok(dataNodes.every((c) => c.enabledButtons > 0), `actions enabled on every data node again: ${JSON.stringify(dataNodes)}`);
    } finally {
      await again.close();
    }
  } finally {
    await page.close();
    await stack.engine.close();
  }
});
