import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chromium } from 'playwright-core';
import { zygoteCpuMs } from '../../../scripts/zygote-cpu.js';
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
    // One second of script in the page's renderer, which then exits with the page.
    await page.evaluate('(() => { const end = Date.now() + 1000; while (Date.now() < end); })()');
    await page.close();
    await browser.close();
    const after = zygoteCpuMs(pid) ?? 0;
    assert.ok(after - before >= 800, `${after - before} ms counted for a page that computed for 1000 ms`);
  } finally {
    await server.close();
  }
});
