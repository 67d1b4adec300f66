import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createConnection } from 'mysql2/promise';
import { NO_BROWSER, browserSuite, screenshot, waitInPage, withStackPage, GRID_NODES } from '../harness.js';

const skip = NO_BROWSER ?? false;
if (NO_BROWSER) console.log(`# renderer e2e skipped: ${NO_BROWSER}`);
const chromium = browserSuite();
const VIEWPORT = { width: 1600, height: 1000 };

const cellText = `document.querySelector('[data-testid="thread-cell"]').textContent`;

/** The threads the simulator's SQL node lists (`ndbinfo.threads`, names from its configuration), by node. */
async function simulatorThreads(url: string): Promise<Map<number, string[]>> {
  const { hostname, port, username } = new URL(url);
  const conn = await createConnection({ host: hostname, port: Number(port), user: username });
  try {
    const [rows] = await conn.query('SELECT node_id, thr_no, thread_name FROM ndbinfo.threads ORDER BY node_id, thr_no');
    const out = new Map<number, string[]>();
    for (const r of rows as Array<{ node_id: number; thread_name: string }>) out.set(r.node_id, [...(out.get(r.node_id) ?? []), r.thread_name]);
    return out;
  } finally {
    await conn.end();
  }
}

test('Threads view: every data node with the threads its configuration gives, LDM hottest under flexAsynch, the cell splits in text, tiles with their hottest thread', { skip, timeout: 60_000 }, async () => {
  await withStackPage(chromium, { simulator: { scenario: 'flexasynch', dataNodes: 4 } }, VIEWPORT, async (page, stack) => {
    const expected = await simulatorThreads(stack.simulator.sql!.url);
    assert.equal(expected.size, 4);
    const total = [...expected.values()].reduce((n, t) => n + t.length, 0);

    // The Nodes view: each data node's card names its hottest thread once the SQL source has read them.
    await waitInPage(page, `document.querySelectorAll('[data-testid="hottest-thread"]').length === 4`);
    const hot = await page.$$eval('[data-testid="hottest-thread"]', (els) => els.map((e) => e.textContent ?? ''));
    for (const h of hot) assert.match(h, /^[a-z]+ \d+ %$/);

    await page.keyboard.press('9');
    await page.waitForSelector('[data-testid="threads-view"]');
    await waitInPage(page, `Number(document.querySelector('[data-testid="thread-heatmap"]')?.dataset.rows) === ${total}`);

    // Row by row with the keyboard: node and thread names in the configuration's order, each thread numbered in its kind.
    await page.focus('[data-testid="thread-heatmap"]');
    await page.keyboard.press('End');
    // The focused cell is outlined where it is: the first row's newest column, at the right edge.
    const outline = (await page.evaluate(`(() => {
      const f = document.querySelector('[data-testid="heatmap-focus"]')?.getBoundingClientRect();
      const h = document.querySelector('[data-testid="thread-heatmap"]').getBoundingClientRect();
      return f ? { fromRight: h.right - f.right, fromTop: f.top - h.top, height: f.height } : null;
    })()`)) as { fromRight: number; fromTop: number; height: number } | null;
    assert.ok(outline && Math.abs(outline.fromRight) < 20 && outline.fromTop >= -2 && outline.fromTop < outline.height, JSON.stringify(outline));
    const seen: Array<[number, string]> = [];
    for (let i = 0; i < total; i++) {
      const text = (await page.evaluate(cellText)) as string;
      const m = /^node (\d+) ([a-z]+)(?: (\d+))? at /.exec(text);
      assert.ok(m, text);
      seen.push([Number(m[1]), m[2]!]);
      await page.keyboard.press('ArrowDown');
    }
    assert.deepEqual(
      seen,
      [...expected].flatMap(([nodeId, names]) => names.map((n): [number, string] => [nodeId, n])),
    );
    // The focused cell's two ndb_top splits arrive from the engine.
    await waitInPage(page, `/OS user \\d+ %, system \\d+ %, idle \\d+ % · exec \\d+ %, send \\d+ %, buffer full \\d+ %, sleeping \\d+ %/.test(${cellText})`);

    // flexAsynch saturates the LDM threads: they lead the hottest ten, and sorting by hottest puts one on top.
    await waitInPage(page, `[...document.querySelectorAll('[data-testid="thread-top-ten"] li')].slice(0, 4).every((li) => / ldm( \\d+)?$/.test(li.querySelector('span').textContent))`);
    const strip = await page.textContent('[data-testid="thread-kind-strip"]');
    // The host's CPUs (cpudata, which the simulator's default release has) lead each node's kinds.
    for (const nodeId of expected.keys()) assert.match(strip ?? '', new RegExp(`node ${nodeId} host \\d+ % of \\d+ CPUs, LDM \\d+ %, TC \\d+ %`));
    await page.selectOption('[data-testid="threads-sort"]', 'hottest');
    await page.focus('[data-testid="thread-heatmap"]');
    await page.keyboard.press('Home');
    await page.keyboard.press('PageUp');
    await page.keyboard.press('End');
    assert.match((await page.evaluate(cellText)) as string, /^node \d+ ldm/);

    // The kind filter keeps one kind; a window switch asks again and keeps every row.
    await page.selectOption('[data-testid="threads-kind"]', 'tc');
    const tcRows = [...expected.values()].flat().filter((n) => n === 'tc').length;
    await waitInPage(page, `Number(document.querySelector('[data-testid="thread-heatmap"]').dataset.rows) === ${tcRows}`);
    await page.selectOption('[data-testid="threads-window"]', '15m');
    await waitInPage(page, `document.querySelector('[data-testid="thread-heatmap"]').dataset.columns > 800`);
    console.log(`# threads view: ${await screenshot(page, 'threads-view')}`);
  });
});

test('without an SQL source the Threads view says how to get one in one line, and the Nodes view is as it was', { skip, timeout: 60_000 }, async () => {
  await withStackPage(chromium, { simulator: { scenario: 'steady', dataNodes: 2, sql: false } }, VIEWPORT, async (page) => {
    await page.waitForSelector(GRID_NODES);
    await waitInPage(page, `document.querySelectorAll('${GRID_NODES.replaceAll('"', '\\"')}').length >= 2`);
    await page.keyboard.press('9');
    const hint = await page.waitForSelector('[data-testid="threads-hint"]');
    assert.match((await hint.textContent()) ?? '', /No SQL source.*--sql mysql:\/\/USER@HOST\[:PORT\].*embedded SQL node/);
    assert.equal(await page.$('[data-testid="thread-heatmap"]'), null);
    await page.keyboard.press('1');
    await page.waitForSelector(GRID_NODES);
    assert.equal(await page.$('[data-testid="hottest-thread"]'), null, 'no hottest thread without the source');
    assert.equal(await page.$$eval('.facts dt', (dts) => dts.filter((d) => d.textContent === 'hottest thread').length), 0);
  });
});
