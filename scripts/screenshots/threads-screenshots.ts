/**
 * The Threads view, the 'Redo & transport' view (and the Nodes view's tiles and cards with their hottest thread) at
 * 1920×1080 and 1280×720, dark and light, for 4 and 144 data nodes under flexAsynch, plus each view's one-line hint
 * without an SQL source. The 144-node
 * cluster's SQL node is a process of its own (`ndbtop sim --sql-port 0`), as the embedded one stops at 48 data nodes.
 *   node --import tsx scripts/screenshots/threads-screenshots.ts [outDir] [--144 | --fed]   (--144: only the large cluster; --fed:
 *   144 data nodes in process with their thread readings fed, for when the 144-node SQL simulator cannot keep up)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { parseSqlUrl } from '../../ndbinfo/client/sql-url.js';
import { createEngine } from '../../electron/engine/create-engine.js';
import { startServeServer } from '../../electron/serve/serve-server.js';
import { buildRenderer, launchChromium, startStack, waitInPage } from '../../renderer/e2e/harness.js';
import { startFedStack } from '../../bench/renderer/threads.js';

const SIZES = [
  { width: 1920, height: 1080 },
  { width: 1280, height: 720 },
] as const;
const THEMES = ['dark', 'light'] as const;
const CLI = fileURLToPath(new URL('../../electron/cli/ndbtop.ts', import.meta.url));

async function shoot(page: Page, outDir: string, name: string): Promise<void> {
  await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
  const path = join(outDir, `${name}.png`);
  await page.screenshot({ path });
  console.log(path);
}

/** `ndbtop sim` in its own process; resolves with its connectstring and SQL URL once it printed them. */
async function simProcess(dataNodes: number): Promise<{ child: ChildProcess; connectstring: string; sqlUrl: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, 'sim', '--data-nodes', String(dataNodes), '--scenario', 'flexasynch', '--port', '0', '--sql-port', '0', '--api-nodes', '8'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let connectstring = '';
  for await (const line of createInterface({ input: child.stdout! })) {
    if (line.startsWith('connectstring: ')) connectstring = line.slice('connectstring: '.length);
    if (line.startsWith('ndbinfo: ')) return { child, connectstring, sqlUrl: line.slice('ndbinfo: '.length) };
  }
  throw new Error('ndbtop sim ended before printing its addresses');
}

const PAGE_STATE = `(() => {
  const s = window.__ndbtopStore.getState();
  const nodes = [...s.shown.ndbinfoNodes.values()];
  return { source: s.shown.ndbinfo?.source ?? null, selfLoad: s.shown.ndbinfo?.selfLoad ?? null, withThreads: nodes.filter((n) => n.threads).length, error: s.ui.error ?? null, header: document.querySelector('header')?.textContent?.slice(0, 200) };
})()`;

async function shootAll(browser: Browser, url: string, outDir: string, prefix: string, withSource: boolean): Promise<void> {
  for (const viewport of SIZES) {
    for (const theme of THEMES) {
      const page = await browser.newPage({ viewport, colorScheme: theme });
      const name = `${prefix}-${viewport.width}x${viewport.height}-${theme}`;
      await page.goto(url);
      await page.waitForSelector('[data-testid^="node-"][data-status]', { timeout: 60_000 });
      if (withSource) await waitInPage(page, `document.querySelectorAll('[data-testid="hottest-thread"]').length > 0 || document.querySelector('.grid-dense')`, 60_000);
      await shoot(page, outDir, `${name}-nodes`);
      await page.keyboard.press('9');
      if (!withSource) {
        await page.waitForSelector('[data-testid="threads-hint"]');
        await shoot(page, outDir, `${name}-threads`);
        await page.keyboard.press('0');
        await page.waitForSelector('[data-testid="io-hint"]');
        await shoot(page, outDir, `${name}-io`);
        await page.close();
        continue;
      }
      const drawn = await waitInPage(page, `document.querySelector('[data-testid="thread-heatmap"]')`, 60_000).then(
        () => true,
        () => false,
      );
      if (!drawn) {
        // Say what the page had instead (the SQL source's state, nodes with thread figures, its error) and shoot it.
        console.log(`${name}: no heatmap within 60 s; the page had ${JSON.stringify(await page.evaluate(PAGE_STATE))}`);
        await shoot(page, outDir, `${name}-threads`);
        await page.close();
        continue;
      }
      await page.selectOption('[data-testid="threads-window"]', '1m');
      // A 144-node simulator on a loaded machine answers late: shoot what there is rather than nothing.
      await waitInPage(page, `Number(document.querySelector('[data-testid="thread-heatmap"]').dataset.version) > 3`, 60_000).catch(() => console.log(`${name}: fewer than 4 updates of the heatmap within 60 s`));
      // Point at a recent cell of the third row, so the splits show.
      const box = (await (await page.$('[data-testid="thread-heatmap"]'))!.boundingBox())!;
      await page.mouse.move(box.x + box.width - 40, box.y + 40);
      await waitInPage(page, `/sleeping/.test(document.querySelector('[data-testid="thread-cell"]').textContent)`, 10_000).catch(() => undefined);
      await shoot(page, outDir, `${name}-threads`);
      await page.selectOption('[data-testid="threads-sort"]', 'hottest');
      await shoot(page, outDir, `${name}-threads-hottest`);
      // A focused select would take the key as a choice of its own.
      await page.evaluate('document.activeElement?.blur()');
      await page.keyboard.press('0');
      await waitInPage(page, `document.querySelectorAll('[data-testid="io-log-row"]').length > 0`, 60_000).catch(() => console.log(`${name}: no redo/undo row within 60 s`));
      await shoot(page, outDir, `${name}-io`);
      await page.close();
    }
  }
}

async function shootSmall(browser: Browser, dir: string, outDir: string): Promise<void> {
  const small = await startStack(dir, { simulator: { scenario: 'flexasynch', dataNodes: 4 } });
  try {
    await new Promise((r) => setTimeout(r, 20_000));
    await shootAll(browser, small.url, outDir, '4nodes', true);
  } finally {
    await small.close();
  }
  const bare = await startStack(dir, { simulator: { scenario: 'steady', dataNodes: 4, sql: false } });
  try {
    await shootAll(browser, bare.url, outDir, '4nodes-nosql', false);
  } finally {
    await bare.close();
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const largeOnly = args.includes('--144') || args.includes('--fed');
  const fed = args.includes('--fed');
  const outDir = args.find((a) => !a.startsWith('--')) ?? join(tmpdir(), `ndbtop-threads-screens-${Date.now()}`);
  await mkdir(outDir, { recursive: true });
  const built = await buildRenderer();
  const browser = await launchChromium();
  try {
    if (!largeOnly) await shootSmall(browser, built.dir, outDir);
    if (fed) {
      // The in-process simulator, its thread readings fed as an SQL source would give them: no redo, transport or
      // restart figures, but the Threads view at 144 × 20 threads as it draws.
      const stack = await startFedStack(built.dir);
      try {
        await shootAll(browser, stack.url, outDir, '144nodes-fed', true);
      } finally {
        await stack.close();
      }
      return;
    }
    const sim = await simProcess(144);
    try {
      const engine = await createEngine({ host: 'serve', simulator: false, pollIntervalMs: 1000, clusters: [{ connectstring: sim.connectstring, sql: { addresses: [parseSqlUrl(sim.sqlUrl)], password: undefined } }] });
      const server = await startServeServer({ engine, staticDir: built.dir, host: '127.0.0.1', port: 0, allowChanges: true });
      try {
        await new Promise((r) => setTimeout(r, 30_000));
        await shootAll(browser, server.url, outDir, '144nodes', true);
      } finally {
        await server.close();
        await engine.close();
      }
    } finally {
      sim.child.kill('SIGTERM');
    }
  } finally {
    await browser.close();
    await built.remove();
  }
  console.log(outDir);
}

await main();
