import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import WebSocket from 'ws';
import { spawnCli, simAddresses } from '../../../electron/cli/test/run-cli.js';
import { createEngine } from '../../../electron/engine/create-engine.js';
import { startServeServer } from '../../../electron/serve/serve-server.js';
import { MAX_CLIENT_BUFFER_BYTES } from '../../../electron/serve/transport/ws-server.js';
import { parseSqlUrl } from '../../../ndbinfo/client/sql-url.js';
import { VIEWS, viewKey } from '../../src/store/ui-slice.js';
import { NO_BROWSER, browserSuite, screenshot, valueInPage, waitInPage, withPage, withStackPage } from '../harness.js';

const skip = NO_BROWSER ?? false;
const suite = browserSuite();
// Every reading within a fraction of a second, so a burst of the congested network shows at once.
const FAST = { intervals: { logspaces: 300, transporters: 300, transporterDetails: 300, diskWriteSpeed: 300, diskPageBuffer: 300 }, loadEveryMs: 300, connectTimeoutMs: 2000, queryTimeoutMs: 2000 };
const IO_KEY = viewKey(VIEWS.indexOf('io'));

const count = (page: Page, selector: string): Promise<number> => page.evaluate(`document.querySelectorAll(${JSON.stringify(selector)}).length`) as Promise<number>;

test('Redo & transport: each data node’s redo/undo fill, write speed and disk page buffer; the link matrix turns red when the congested network overloads, with its alert; screenshots', { skip }, async () => {
  await withStackPage(suite, { simulator: { scenario: 'congested-network', dataNodes: 4, replicas: 2, speed: 8 }, sqlWatch: FAST }, { width: 1280, height: 720 }, async (page) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForSelector('[data-testid^="node-"][data-status="STARTED"]', { timeout: 30_000 });
    await page.keyboard.press(IO_KEY);
    await waitInPage(page, `document.querySelectorAll('[data-testid="io-log-row"]').length === 4`);
    await waitInPage(page, `[...document.querySelectorAll('[data-testid="io-redo"]')].every((c) => c.dataset.percent !== '')`);
    // "—" until a rate exists (a first reading), then bytes per second: never a 0 B/s nothing measured.
    assert.match((await page.textContent('[data-testid="io-log-row"] [data-testid="io-redo-speed"]')) ?? '', /^(—|\S+ [kMG]?B\/s) of .*B\/s target/);
    await waitInPage(page, `/B\\/s of .*B\\/s target/.test(document.querySelector('[data-testid="io-log-row"] [data-testid="io-redo-speed"]')?.textContent ?? '')`);
    await waitInPage(page, `[...document.querySelectorAll('[data-testid="io-dpb"]')].every((c) => / %$/.test(c.textContent))`);
    // 4 data nodes × (3 other data nodes + management server + API nodes).
    await waitInPage(page, `document.querySelectorAll('[data-testid="io-cell"][data-from]').length >= 16`);
    assert.equal(await count(page, '[data-testid="io-cell"][data-from="2"][data-to="2"]'), 0, 'a node has no link to itself');
    await screenshot(page, 'io-1280-dark-calm');
    // The burst: the replication links between the members of a node group overload, and the alert says which.
    // One look at the page: at speed 8 a burst lasts under 4 s, and the next reading may end it between two looks.
    const { state, hot } = await valueInPage<{ state: string; hot: Array<[number, number]> }>(page, `(() => {
      const hot = [...document.querySelectorAll('[data-testid="io-cell"][data-tone="bad"]')].map((c) => [Number(c.dataset.from), Number(c.dataset.to)]);
      return hot.length > 0 && { state: document.querySelector('[data-testid="io-link-state"]')?.textContent ?? '', hot };
    })()`, 40_000);
    // The line counts the reading the matrix shows.
    assert.match(state, new RegExp(`^${hot.length} links? overloaded`));
    await waitInPage(page, `document.querySelector('[data-testid^="alert"][data-kind="transporter-overload"]') !== null`);
    // Node groups are (2, 3) and (4, 5): only links inside a node group carry the replication that overloads.
    for (const [from, to] of hot) assert.ok(Math.floor((from! - 2) / 2) === Math.floor((to! - 2) / 2), `overloaded ${from}→${to} inside a node group`);
    const shares = await page.$$eval('[data-testid="io-api"]', (items) => items.map((i) => (i as HTMLElement).dataset.behind));
    assert.ok(shares.length >= 1 && shares.every((b) => b === 'false'), `the connected API nodes share the traffic evenly, none behind: ${JSON.stringify(shares)}`);
    await screenshot(page, 'io-1280-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await screenshot(page, 'io-1280-light');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await screenshot(page, 'io-1920-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'io-1920-dark');
  });
});

test('redo-pressure: each fill says where it is going, and the lead-time warning is up before the 80 % warning; screenshot', { skip }, async () => {
  await withStackPage(suite, { simulator: { scenario: 'redo-pressure', dataNodes: 2, speed: 8 }, sqlWatch: FAST }, { width: 1280, height: 720 }, async (page) => {
    await page.waitForSelector('[data-testid^="node-"][data-status="STARTED"]', { timeout: 30_000 });
    await page.keyboard.press(IO_KEY);
    await waitInPage(page, `document.querySelectorAll('[data-testid="io-redo-trend"]').length === 2`);
    // The engine's trend, once a few readings span some seconds: a lead time or "not filling", never a guess before.
    await waitInPage(page, `[...document.querySelectorAll('[data-testid="io-redo-trend"]')].every((c) => /(full in ~\\d+ (s|min|h) at this rate|not filling)$/.test(c.textContent))`, 30_000);
    const before = await valueInPage<{ high: boolean }>(page, `document.querySelector('[data-testid^="alert"][data-kind="fill-soon"]') && { high: document.querySelector('[data-testid^="alert"][data-kind="log-fill-high"]') !== null }`, 60_000);
    assert.equal(before.high, false, 'the lead-time warning comes before the fill reaches 80 %');
    await screenshot(page, 'io-1280-redo-pressure');
  });
});

test('without an SQL source the view is one line saying how to turn it on', { skip }, async () => {
  await withStackPage(suite, { simulator: { scenario: 'steady', dataNodes: 2, sql: false } }, { width: 1280, height: 720 }, async (page) => {
    await page.waitForSelector('[data-testid^="node-"][data-status="STARTED"]', { timeout: 30_000 });
    await page.keyboard.press(IO_KEY);
    await page.waitForSelector('[data-testid="io-hint"]');
    assert.match((await page.textContent('[data-testid="io-hint"]')) ?? '', /^No SQL source: .* --sql mysql:\/\/USER@HOST/);
    assert.equal(await count(page, '[data-testid="io-view"]'), 0);
    await screenshot(page, 'io-no-sql');
  });
});

/** One request over serve's WebSocket as the page makes it: the answer's frame as sent, and what it said. */
function askRaw(url: string, name: string, request: object): Promise<{ bytes: number; ok: boolean; response: unknown; error: unknown }> {
  return new Promise((resolve, reject) => {
    // No Origin: not a browser, which serve lets in as it does its own tests' clients.
    const ws = new WebSocket(new URL('/ws', url.replace(/^http/, 'ws')));
    ws.on('error', reject);
    ws.on('open', () => ws.send(JSON.stringify({ id: 1, name, request })));
    ws.on('message', (data: Buffer) => {
      const m = JSON.parse(data.toString()) as { type: string; id?: number; ok: boolean; response: unknown; error: unknown };
      if (m.type !== 'ndbtop:response' || m.id !== 1) return;
      ws.close();
      resolve({ bytes: data.length, ok: m.ok, response: m.response, error: m.error });
    });
  });
}

test('144 data nodes with an SQL source: the snapshot over serve stays well under what a WebSocket client is sent at once, the links come apart and the matrix shows them, only what is in view, with a focus the keys move', { skip, timeout: 300_000 }, async (t) => {
  const DATA_NODES = 144;
  // The SQL node of a cluster this size is a process of its own, as the embedded one stops at 48 data nodes.
  const sim = spawnCli(['sim', '--data-nodes', String(DATA_NODES), '--scenario', 'steady', '--port', '0', '--sql-port', '0']);
  t.after(() => void sim.kill('SIGKILL'));
  const { connectstring, url: sqlUrl } = await simAddresses(sim);
  // Only what this test looks at, and seldom: every reading of 144 data nodes costs the simulator's SQL node seconds.
  const seldom = 120_000;
  const intervals = { cpu: seldom, transporters: 3000, restarts: seldom, logspaces: seldom, logbuffers: seldom, transporterDetails: seldom, memory: seldom, resources: seldom, diskPageBuffer: seldom, diskWriteSpeed: seldom };
  const engine = await createEngine({ host: 'serve', simulator: false, pollIntervalMs: 1000, clusters: [{ connectstring, sql: { addresses: [parseSqlUrl(sqlUrl)], password: undefined } }], sqlWatch: { intervals, connectTimeoutMs: 20_000, queryTimeoutMs: 60_000 } });
  t.after(() => engine.close());
  const server = await startServeServer({ engine, staticDir: suite().dir, host: '127.0.0.1', port: 0 });
  t.after(() => server.close());

  const links = DATA_NODES * (DATA_NODES - 1);
  for (const deadline = Date.now() + 200_000; ; ) {
    const s = await engine.handlers.getSnapshot({});
    // The second reading: the first has no rates yet.
    const rated = (await engine.handlers.getLinks({ nodeIds: [1] }))?.links.some((l) => l.sentPerSec !== null);
    if ((s.ndbinfo?.links?.count ?? 0) >= links && rated) break;
    if (Date.now() > deadline) throw new Error(`no links of ${DATA_NODES} data nodes with rates: ${JSON.stringify(s.ndbinfo)}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  const snapshot = await askRaw(server.url, 'getSnapshot', {});
  assert.ok(snapshot.ok, `getSnapshot over serve: ${JSON.stringify(snapshot.error)}`);
  assert.ok(snapshot.bytes < MAX_CLIENT_BUFFER_BYTES / 2, `the snapshot is ${snapshot.bytes} bytes, the limit ${MAX_CLIENT_BUFFER_BYTES}`);
  // Every link is there, asked apart, a few data nodes an answer as the page asks.
  const all = await engine.handlers.getLinks({});
  assert.ok(all && all.links.length >= links);
  assert.ok(JSON.stringify(all).length > MAX_CLIENT_BUFFER_BYTES, 'in the snapshot they would not have fitted');
  const sixteen = [...new Set(all.links.map((l) => l.nodeId))].slice(0, 16);
  const part = await askRaw(server.url, 'getLinks', { nodeIds: sixteen });
  assert.ok(part.ok && part.bytes < MAX_CLIENT_BUFFER_BYTES, `16 data nodes' links: ${part.bytes} bytes`);
  assert.equal((part.response as typeof all).links.length, all.links.filter((l) => sixteen.includes(l.nodeId)).length);

  await withPage(suite().browser, server.url, { width: 1920, height: 1080 }, async (page) => {
    await page.waitForSelector('[data-testid^="node-"][data-status="STARTED"]', { timeout: 60_000 });
    await page.keyboard.press(IO_KEY);
    await waitInPage(page, `document.querySelector('[data-testid="io-matrix"]')?.dataset.rows === '${DATA_NODES}'`, 60_000);
    await waitInPage(page, `document.querySelectorAll('[data-testid="io-cell"]').length > 20 && [...document.querySelectorAll('[data-testid="io-cell"]')].every((c) => /B\\/s$/.test(c.textContent))`, 60_000);
    const cells = await page.$$eval('[data-testid="io-cell"]', (els) => els.map((c) => [Number((c as HTMLElement).dataset.from), Number((c as HTMLElement).dataset.to), c.textContent ?? '']));
    // Only the cells in view: a screen's worth, not 144 × ~150.
    assert.ok(cells.length < 1500, `${cells.length} cells in the page`);
    const byPair = new Map(all.links.map((l) => [`${l.nodeId}>${l.remoteNodeId}`, l]));
    for (const [from, to, text] of cells) {
      assert.ok(byPair.has(`${from}>${to}`), `cell ${from}→${to} is a link the engine read`);
      assert.match(text as string, /B\/s$/);
    }
    // The keys move a focus through all of it; what it rests on is described.
    await page.focus('[data-testid="io-matrix"]');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('End');
    for (let i = 0; i < 3; i++) await page.keyboard.press('PageDown');
    const detail = (await page.textContent('[data-testid="io-link-detail"]')) ?? '';
    const last = all.links.reduce((m, l) => Math.max(m, l.remoteNodeId), 0);
    assert.match(detail, new RegExp(`^node \\d+ → node ${last} \\(\\w+\\): (sends|connecting)`), detail);
    const [, focusedFrom] = /^node (\d+)/.exec(detail) ?? [];
    assert.ok(Number(focusedFrom) > 2 + 16, `page keys moved the focus down past the first screen: ${detail}`);
    await waitInPage(page, `document.querySelector('.io-focus') !== null`);
    await page.$eval('[data-testid="io-transport"]', (el) => el.scrollIntoView());
    await screenshot(page, 'io-144-1920');
  });
});
