import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chromium } from 'playwright-core';
import { existsSync } from 'node:fs';
import { descendants, processes, zygoteCpuMs } from '../../../scripts/test-runner/zygote-cpu.js';
import { chromiumLaunchOptions, EXTRA_DISABLED_FEATURES } from '../chromium-launch.js';
import { browserSuite, NO_BROWSER } from '../harness.js';

const suite = browserSuite();

// The browser every e2e file uses (the runner's shared one, else the file's own) as Chromium itself reports its
// command line: Playwright's disabled features kept, ours added, in the one --disable-features Chromium reads.
test('the tests’ Chromium runs with Playwright’s features off and the omnibox popups off too', { skip: NO_BROWSER ?? false }, async () => {
  const page = await suite().browser.newPage();
  try {
    await page.goto('chrome://version');
    const commandLine = (await page.textContent('#command_line')) ?? '';
    const lists = [...commandLine.matchAll(/--disable-features=(\S+)/g)].map((m) => m[1]!.split(','));
    assert.equal(lists.length, 1, commandLine);
    const disabled = lists[0]!;
    for (const feature of EXTRA_DISABLED_FEATURES) assert.ok(disabled.includes(feature), feature);
    // Playwright's own list is still there, whole: the one it would have passed, as this process reads it too.
    const options = await chromiumLaunchOptions();
    const playwrights = (options.ignoreDefaultArgs as string[] | undefined)?.[0]?.replace('--disable-features=', '').split(',') ?? [];
    assert.ok(playwrights.length > 0, 'Playwright passes features of its own');
    for (const feature of playwrights) assert.ok(disabled.includes(feature), feature);
  } finally {
    await page.close();
  }
});

// The runner's "shared Chromium" CPU adds the zygotes' trees (renderers, GPU process), which init reaps after the
// browser exits: without them a run's browser time read a third of what the machine spent on it.
test('a closed page’s renderer time is counted under the browser’s zygotes', { skip: NO_BROWSER ?? false }, async () => {
  const server = await chromium.launchServer(await chromiumLaunchOptions());
  try {
    const pid = server.process().pid;
    assert.ok(pid);
    const before = zygoteCpuMs(pid) ?? assert.fail('no /proc here');
    const browser = await chromium.connect(server.wsEndpoint());
    const page = await browser.newPage();
    // A fixed amount of script in the page's renderer (not a wall-clock second, of which a loaded machine gives it a
    // fraction), read while the renderer lives, then again once it has exited with the page and been reaped.
    await page.evaluate('(() => { let x = 0; for (let i = 0; i < 1e8; i++) x = (x * 31 + i) | 0; return x; })()');
    const open = (zygoteCpuMs(pid) ?? 0) - before;
    const renderer = descendants(processes() ?? [], pid).filter((p) => p.cmdline.includes('--type=renderer')).sort((a, b) => b.ticks - a.ticks)[0];
    assert.ok(renderer, 'the page has a renderer process');
    await page.close();
    await browser.close();
    for (const deadline = Date.now() + 10_000; existsSync(`/proc/${renderer.pid}`) && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 50));
    assert.ok(!existsSync(`/proc/${renderer.pid}`), 'the closed page’s renderer exited');
    const closed = (zygoteCpuMs(pid) ?? 0) - before;
    assert.ok(open >= 100, `${open} ms counted while the page computed`);
    // The clock ticks in 10 ms.
    assert.ok(closed >= open - 20, `${closed} ms counted once the page’s renderer was gone, ${open} ms while it computed`);
  } finally {
    await server.close();
  }
});
