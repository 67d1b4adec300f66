import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { createEngine } from '../../../electron/engine/create-engine.js';
import { startServeServer } from '../../../electron/serve/serve-server.js';
import { NO_BROWSER, browserSuite, startStack, waitInPage } from '../harness.js';
import { freePort } from '../../../native-mgm/test/free-port.js';
import { recordAttributes, seen } from '../page-probe.js';

const skip = NO_BROWSER ?? false;

const suite = browserSuite();

const chip = `document.querySelector('[data-testid="connection-state"]')?.dataset.state`;
const sampleAge = async (page: Page): Promise<string> => (await page.textContent('[data-testid="sample-age"]')) ?? '';

test('serve killed: the page says disconnected — reconnecting at once, the sample age keeps counting, and it comes back when serve does', { skip }, async () => {
  const { dir, browser } = suite();
  // serve comes back on this port below: one no other test's bind(0) can take meanwhile.
  const stack = await startStack(dir, { simulator: { scenario: 'steady', dataNodes: 2 } }, undefined, { port: await freePort() });
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
  // serve comes back on this port below: one no other test's bind(0) can take meanwhile.
  const stack = await startStack(dir, { simulator: { scenario: 'steady', dataNodes: 2 } }, undefined, { port: await freePort() });
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

test('a cluster that refuses connections says so, with where, for how long and when the next try is', { skip }, async () => {
  const { dir, browser } = suite();
  const port = await freePort();
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
