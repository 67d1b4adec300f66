import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ClusterSnapshot } from '../../../electron/contract/index.js';
import { startSimulator } from '../../../native-mgm/sim/index.js';
import { NO_BROWSER, browserSuite, startStack, waitInPage } from '../harness.js';

const skip = NO_BROWSER ?? false;

const suite = browserSuite();

test('single user mode offers only the cluster’s API nodes; an invalid connect string is refused with the parser’s words', { skip }, async () => {
  const { dir, browser } = suite();
  const stack = await startStack(dir, { actionsEnabled: true, simulator: { scenario: 'steady', dataNodes: 4, apiNodes: 6, connectedApiNodes: 2 } });
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  try {
    await page.goto(stack.url);
    await page.waitForSelector('[data-testid="single-user-node"] option[value="6"]', { state: 'attached', timeout: 30_000 });
    const snapshot = (await (await fetch(new URL('/api/snapshot', stack.url))).json()) as ClusterSnapshot;
    const offered = await page.$$eval('[data-testid="single-user-node"] option', (os) => (os as HTMLOptionElement[]).map((o) => o.value).filter(Boolean).map(Number));
    const apiIds = snapshot.nodes.filter((n) => n.type === 'API').map((n) => n.nodeId);
    assert.deepEqual([...offered].sort((a, b) => a - b), apiIds, 'every API node, and nothing else');
    for (const n of snapshot.nodes.filter((x) => x.type === 'NDB')) assert.ok(!offered.includes(n.nodeId), `data node ${n.nodeId} offered`);

    await page.keyboard.press('5');
    await page.fill('[aria-label="profile name"]', 'typo');
    await page.fill('[aria-label="connect string"]', 'not a host::::');
    await page.click('text=Save profile');
    await page.waitForSelector('[data-testid="profile-error"]');
    assert.match((await page.textContent('[data-testid="profile-error"]')) ?? '', /^invalid connect string: .*port "a host::::" is not a number/);
    assert.equal(await page.inputValue('[aria-label="connect string"]'), 'not a host::::', 'what was typed stays to be corrected');
    assert.equal(await page.$('[data-testid="watch-profile-typo"]'), null, 'nothing saved');
  } finally {
    await page.close();
    await stack.close();
  }
});

test('the cluster picker shows each cluster’s worst alert; a watched cluster can be removed', { skip }, async () => {
  const { dir, browser } = suite();
  const other = await startSimulator({ scenario: 'steady', dataNodes: 2, speed: 4 });
  const stack = await startStack(dir, { simulator: { scenario: 'steady', dataNodes: 2 } });
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  try {
    await page.goto(`${stack.url}#settings`);
    await page.fill('[aria-label="profile name"]', 'lab');
    await page.fill('[aria-label="connect string"]', other.connectstring);
    await page.click('text=Save profile');
    await page.click('[data-testid="watch-profile-lab"]');
    await waitInPage(page, `document.querySelectorAll('[data-testid="cluster-select"] option').length === 2`);
    // Node 1 is its management server, 2 its first data node: failed once the engine has seen it STARTED.
    await waitInPage(page, `window.__ndbtopStore.getState().live.name === 'lab' && window.__ndbtopStore.getState().live.nodes.get(2)?.status === 'STARTED'`);
    other.model.failNode(2);
    await page.waitForSelector('[data-testid="cluster-select"] option[data-alert="critical"]', { state: 'attached', timeout: 60_000 });
    assert.match((await page.textContent('[data-testid="cluster-select"] option[data-alert="critical"]')) ?? '', /lab.*CRITICAL/);
    await page.click('[data-testid="remove-cluster-lab"]');
    await page.waitForSelector('[data-testid="cluster-select"]', { state: 'detached', timeout: 30_000 });
    await waitInPage(page, `!document.querySelector('.cluster-name')?.textContent?.includes('lab')`);
  } finally {
    await page.close();
    await stack.close();
    await other.close();
  }
});
