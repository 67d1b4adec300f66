import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ClusterSnapshot } from '../../../electron/contract/index.js';
import { MgmClient } from '../../../native-mgm/index.js';
import { NO_BROWSER, browserSuite, startStack, waitInPage } from '../harness.js';

const skip = NO_BROWSER ?? false;

const suite = browserSuite();

test('rolling restart panel: the running phase by name, each restart timed, an ETA, a colour legend, and a second loop is a new round', { skip }, async () => {
  const { dir, browser } = suite();
  const stack = await startStack(dir, { simulator: { scenario: 'steady', dataNodes: 4, speed: 4 } });
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  const client = new MgmClient({ connectstring: stack.simulator.connectstring, slowRequestTimeoutMs: 120_000 });
  try {
    await page.goto(`${stack.url}#restarts`);
    await page.waitForSelector('[data-testid="timeline-legend"]', { timeout: 30_000 });
    assert.match((await page.textContent('[data-testid="timeline-legend"]')) ?? '', /started.*stopping.*starting.*no record yet/);
    // The bare part of a track (before ndbtop watched) has its own legend entry, in the track's own colour.
    await page.waitForSelector('.timeline-track');
    const [swatch, track] = await page.evaluate(() =>
      ['[data-testid="legend-no-record"]', '.timeline-track'].map((sel) => getComputedStyle(document.querySelector(sel) as Element).backgroundColor),
    );
    assert.equal(swatch, track);
    const snapshot = (await (await fetch(new URL('/api/snapshot', stack.url))).json()) as ClusterSnapshot;
    const [a, b] = snapshot.nodeGroups.map((g) => g.nodeIds[0] ?? 0);
    assert.ok(a && b);
    await client.connect();
    const restarting = client.restart([a]);
    await page.waitForSelector(`[data-testid="restarting-${a}"]`, { timeout: 60_000 });
    // The node's one restart state: a restart phase in words (from its start phase here: no SQL source), named on hover.
    await waitInPage(page, `(document.querySelector('[data-testid="restarting-${a}"]')?.dataset.phase ?? '') !== ''`, 120_000);
    assert.match((await page.textContent(`[data-testid="restarting-${a}"]`)) ?? '', new RegExp(`^node ${a}: [a-z]`));
    assert.match((await page.getAttribute(`[data-testid="restarting-${a}"]`, 'title')) ?? '', /^from the management server \(start phase \d+ done\)$/);
    await restarting;
    await waitInPage(page, `window.__ndbtopStore.getState().live.nodes.get(${a})?.status === 'STARTED'`, 120_000);
    await waitInPage(page, `/node ${a}: \\d+ (s|min)/.test(document.querySelector('[data-testid="restart-duration-${a}"]')?.textContent ?? '')`);
    assert.match((await page.textContent('[data-testid="restart-times-label"]')) ?? '', new RegExp(`^Restart times \\(done: .*\\b${a}\\b`));
    // One done, three to go: the round's end is estimated from it.
    await page.waitForSelector('[data-testid="rolling-eta"]');
    const firstRound = Number(await page.getAttribute('[data-testid="rolling-restart"]', 'data-started'));
    assert.ok(Number(await page.getAttribute('[data-testid="rolling-eta"]', 'data-eta')) > Date.now() - 5000);
    await client.restart([b]);
    await waitInPage(page, `window.__ndbtopStore.getState().live.nodes.get(${b})?.status === 'STARTED'`, 120_000);
    // The same node again: the operator's loop came round, a new round starts.
    await client.restart([a]);
    await waitInPage(page, `Number(document.querySelector('[data-testid="rolling-restart"]')?.dataset.started) > ${firstRound}`, 120_000);
    await waitInPage(page, `window.__ndbtopStore.getState().live.nodes.get(${a})?.status === 'STARTED'`, 120_000);
    await waitInPage(page, `/1 done, 3 to go/.test(document.querySelector('[data-testid="rolling-restart"] h2')?.textContent ?? '')`);
  } finally {
    client.close();
    await page.close();
    await stack.close();
  }
});

test('rolling restart progress is the same at every chart window: the engine keeps the round, not the timeline a page asked for', { skip }, async () => {
  const { dir, browser } = suite();
  // At speed 1 each restart takes ~15 s, so after a minute the round began before the 1m window.
  const stack = await startStack(dir, { simulator: { scenario: 'rolling-restart', dataNodes: 8, speed: 1 } });
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  try {
    await page.goto(`${stack.url}#restarts`);
    await page.click('.window-picker button:has-text("1h")');
    await waitInPage(page, `Date.now() - Number(document.querySelector('[data-testid="rolling-restart"]')?.dataset.started ?? Date.now()) > 70000`, 120_000).catch(async (err: Error) => {
      // Once in CI the round began again within a minute (not reproduced here): say what the engine held.
      const snapshot = (await (await fetch(new URL('/api/snapshot', stack.url))).json()) as ClusterSnapshot;
      err.message += `\n  the engine's round: ${JSON.stringify(snapshot.rollingRestart)}\n  events: ${JSON.stringify((await stack.engine.handlers.getEvents({ limit: 80 })).map((e) => `${new Date(e.at).toISOString().slice(14, 23)} ${e.name} ${e.sourceNodeId}>${e.subjectNodeId ?? ''}`))}`;
      throw err;
    });
    const seen: Array<{ window: string; started: string | null; next: string }> = [];
    for (const window of ['1m', '5m', '15m', '1h', '1m']) {
      await page.click(`.window-picker button:has-text("${window}")`);
      // Whatever the page asks for after the switch (a timeline for that window) has come and been drawn.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const started = await page.getAttribute('[data-testid="rolling-restart"]', 'data-started');
      const done = /done: ([^)]*)\)/.exec((await page.textContent('[data-testid="restart-times-label"]')) ?? '')?.[1] ?? '';
      const next = (await page.textContent('[data-testid="next-node"]')) ?? '';
      seen.push({ window, started, next });
      const nextId = /^node (\d+)$/.exec(next)?.[1];
      if (nextId) assert.ok(!new RegExp(`\\b${nextId}\\b`).test(done), `at ${window} NEXT names node ${nextId}, already restarted this round (done: ${done})`);
    }
    assert.equal(new Set(seen.map((s) => s.started)).size, 1, `the round's start at every window: ${JSON.stringify(seen)}`);
  } finally {
    await page.close();
    await stack.close();
  }
});
