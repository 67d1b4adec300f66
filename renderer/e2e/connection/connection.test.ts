import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { createEngine } from '../../../electron/engine/create-engine.js';
import { startServeServer } from '../../../electron/serve/serve-server.js';
import { NO_BROWSER, browserSuite, startStack, waitInPage } from '../harness.js';
import { recordAttributes, seen } from '../page-probe.js';

const skip = NO_BROWSER ?? false;

const suite = browserSuite();

const chip = `document.querySelector('[data-testid="connection-state"]')?.dataset.state`;
const sampleAge = async (page: Page): Promise<string> => (await page.textContent('[data-testid="sample-age"]')) ?? '';

test('serve killed: the page says disconnected — reconnecting at once, the sample age keeps counting, and it comes back when serve does', { skip }, async () => {
  const { dir, browser } = suite();
  const stack = await startStack(dir, { simulator: { scenario: 'steady', dataNodes: 2 } });
  const page = await browser.newPage();
  try {
    await page.goto(stack.url);
    await waitInPage(page, `${chip} === 'simulated'`);
    await recordAttributes(page);
    const port = Number(new URL(stack.url).port);
    await stack.server.close();
    await waitInPage(page, `${chip} === 'disconnected'`);
    assert.match((await page.textContent('[data-testid="connection-state"]')) ?? '', /DISCONNECTED — RECONNECTING/);
    const first = await sampleAge(page);
    await waitInPage(page, `!document.querySelector('[data-testid="sample-age"]').textContent.includes(${JSON.stringify(first.replace(/^.*\(/, '('))})`);
    assert.equal(await page.evaluate(chip), 'disconnected', 'still disconnected while the age counts on');
    // serve comes back on the same port: the page reconnects by itself.
    const again = await startServeServer({ engine: stack.engine, staticDir: dir, host: '127.0.0.1', port });
    try {
      await waitInPage(page, `${chip} === 'simulated'`, 60_000);
    } finally {
      await again.close();
    }
    assert.deepEqual((await seen(page)).conn.slice(0, 2), ['simulated', 'disconnected']);
  } finally {
    await page.close();
    await stack.engine.close();
  }
});

test('a server that goes silent without closing (no push, no heartbeat) shows as disconnected too', { skip }, async () => {
  const { dir, browser } = suite();
  const stack = await startStack(dir, { simulator: { scenario: 'steady', dataNodes: 2 } });
  const page = await browser.newPage();
  let silent = false;
  // The page's WebSocket goes through this proxy, which can stop passing the server's frames on, as a hung
  // server or a dead network path would, with no close anywhere.
  await page.routeWebSocket(/\/ws/, (ws) => {
    const server = ws.connectToServer();
    server.onMessage((message) => {
      if (!silent) ws.send(message);
    });
    ws.onMessage((message) => server.send(message));
  });
  try {
    await page.goto(stack.url);
    await waitInPage(page, `${chip} === 'simulated'`);
    silent = true;
    await waitInPage(page, `${chip} === 'disconnected'`);
    silent = false;
    await waitInPage(page, `${chip} === 'simulated'`, 60_000);
  } finally {
    await page.close();
    await stack.close();
  }
});

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

test('a cluster that refuses connections says so, with where, for how long and when the next try is', { skip }, async () => {
  const { dir, browser } = suite();
  const port = await closedPort();
  const engine = await createEngine({ host: 'serve', clusters: [{ name: 'down', connectstring: `127.0.0.1:${port}` }], simulator: false, pollIntervalMs: 1000 });
  const server = await startServeServer({ engine, staticDir: dir, host: '127.0.0.1', port: 0 });
  const page = await browser.newPage();
  try {
    await page.goto(server.url);
    await page.waitForSelector('[data-testid="connection-problem"]', { timeout: 30_000 });
    assert.match((await page.textContent('[data-testid="connection-problem"]')) ?? '', new RegExp(`^connection refused at 127\\.0\\.0\\.1:${port} for \\d+ s, retrying (in \\d+ s|now)$`));
  } finally {
    await page.close();
    await server.close();
    await engine.close();
  }
});
