import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createEngine } from '../../../electron/engine/create-engine.js';
import { startServeServer } from '../../../electron/serve/serve-server.js';
import { startSimulator } from '../../../native-mgm/sim/index.js';
import { NO_BROWSER, browserSuite, screenshot, startStack, waitInPage } from '../harness.js';

const skip = NO_BROWSER ?? false;
if (NO_BROWSER) console.log(`# renderer e2e skipped: ${NO_BROWSER}`);
const chromium = browserSuite();

const rowValue = (section: string, param: string): string =>
  `document.querySelector('[data-testid="${section}"] tr[data-param="${param}"] td')?.textContent`;

test('the Configuration view: parameters per node type, non-defaults marked, filter, and a new generation', { skip }, async () => {
  const { dir, browser } = chromium();
  const stack = await startStack(dir, { simulator: { scenario: 'idle', dataNodes: 4 }, configRefreshMs: 300 });
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  try {
    await page.goto(`${stack.url}#/config`);
    await page.waitForSelector('[data-testid="config-section-NDB"]', { timeout: 30_000 });
    assert.equal(await page.evaluate(rowValue('config-section-NDB', 'DataMemory')), '2.0 GiB');
    assert.equal(await page.getAttribute('[data-testid="config-section-NDB"] tr[data-param="DataMemory"]', 'data-nondefault'), 'true');
    assert.equal(await page.getAttribute('[data-testid="config-section-NDB"] tr[data-param="MaxNoOfTables"]', 'data-nondefault'), 'false');
    assert.equal(await page.evaluate(rowValue('config-section-NDB', 'HeartbeatIntervalDbDb')), '5000 ms');
    assert.equal(await page.evaluate(rowValue('config-section-MGM', 'PortNumber')), String(stack.simulator.mgmds[0]!.port));
    await page.fill('[data-testid="config-filter"]', 'datamem');
    await waitInPage(page, `document.querySelector('[data-testid="config-section-NDB"]')?.dataset.rows === '1'`);

    const config = stack.simulator.model.config!;
    stack.simulator.model.config = {
      ...config,
      generation: 2,
      nodes: config.nodes.map((n) => (n.type === 'NDB' ? { ...n, params: { ...n.params, DataMemory: 4294967296 } } : n)),
    };
    await waitInPage(page, `document.querySelector('[data-testid="config-view"]')?.dataset.generation === '2'`);
    const changes = (await page.textContent('[data-testid="config-changes"]')) ?? '';
    assert.match(changes, /Generation 1 → 2/);
    assert.match(changes, /DataMemory: 2\.0 GiB → 4\.0 GiB \(nodes 2–5\)/);
    assert.equal(await page.evaluate(rowValue('config-section-NDB', 'DataMemory')), '4.0 GiB');
    await screenshot(page, 'e2e-config');

    // A data node that is down still shows where it runs.
    stack.simulator.model.failNode(4, { autoRestart: false });
    await page.click('[data-testid="view-nodes"]');
    await waitInPage(page, `document.querySelector('[data-testid="node-4"]')?.dataset.status === 'NO_CONTACT'`);
    await waitInPage(page, `(document.querySelector('[data-testid="node-4-address"]')?.textContent ?? '').includes('10.0.0.14 (configured)')`);
    // The change is in the event log too.
    await waitInPage(page, `(document.querySelector('[data-testid="event-log"]')?.textContent ?? '').includes('Configuration generation 1 → 2: DataMemory')`);
    assert.deepEqual(errors, [], 'the page threw');
  } finally {
    await page.close();
    await stack.close();
  }
});

test('started while a data node is already down, the dashboard shows its node group DEGRADED at once', { skip }, async (t) => {
  const { dir, browser } = chromium();
  const sim = await startSimulator({ scenario: 'idle', dataNodes: 4 });
  t.after(() => sim.close());
  sim.model.failNode(3, { autoRestart: false });
  for (let i = 0; sim.model.data.get(3)?.status !== 'NO_CONTACT'; i++) {
    if (i > 300) throw new Error('node 3 never went down');
    await new Promise((r) => setTimeout(r, 100));
  }
  const engine = await createEngine({ host: 'serve', clusters: [{ connectstring: sim.connectstring }], simulator: false, pollIntervalMs: 60_000 });
  t.after(() => engine.close());
  const server = await startServeServer({ engine, staticDir: dir, host: '127.0.0.1', port: 0 });
  t.after(() => server.close());
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  t.after(() => page.close());
  await page.goto(server.url);
  await page.waitForSelector('[data-testid="nodegroup-0"][data-health]', { timeout: 30_000 });
  assert.equal(await page.getAttribute('[data-testid="nodegroup-0"]', 'data-health'), 'DEGRADED');
  assert.equal(await page.getAttribute('[data-testid="node-3"]', 'data-status'), 'NO_CONTACT');
  assert.match((await page.textContent('[data-testid="node-3-address"]')) ?? '', /10\.0\.0\.13 \(configured\)/);
  assert.match((await page.textContent('[data-testid="node-3"]')) ?? '', /2\.0 GiB configured/);
});
