import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createEngine, type CreateEngineOptions } from '../../electron/engine/create-engine.js';
import type { EngineHost } from '../../electron/engine/core/engine-host.js';
import { startServeServer, type ServeOptions, type ServeServer } from '../../electron/serve/serve-server.js';
import type { SqlSimulator } from '../../ndbinfo/sim/index.js';
import { missingTool } from '../../scripts/missing-tool.js';
import { CHROMIUM, chromiumLaunchOptions } from './chromium-launch.js';
import { sourcePath } from '../../scripts/test-source.js';

/** Every node card or tile the grid has drawn (a node's own element carries its status). */
export const GRID_NODES = '[data-testid="node-grid"] [data-testid^="node-"][data-status]';
/** Why the browser tests are skipped (only where the environment allows Chromium to be missing), or null. */
export const NO_BROWSER = missingTool('chromium', existsSync(CHROMIUM), `no Chromium at ${CHROMIUM} (apt-get install chromium, or set NDBTOP_CHROMIUM)`) || null;

const CONFIG = sourcePath(new URL('../vite.config.ts', import.meta.url));

/**
 * Builds the renderer into a private folder, so tests never race the project's own build output; under
 * scripts/test-runner/run-tests.mjs every browser file shares the one build it made (NDBTOP_TEST_RENDERER_DIR), never written to.
 */
export async function buildRenderer(): Promise<{ dir: string; remove(): Promise<void> }> {
  const shared = process.env.NDBTOP_TEST_RENDERER_DIR;
  if (shared) return { dir: shared, remove: async () => undefined };
  const dir = await mkdtemp(join(tmpdir(), 'ndbtop-renderer-'));
  // Loaded only here: under the runner no browser file builds, and loading vite costs each of them CPU time.
  const { build } = await import('vite');
  await build({ configFile: CONFIG, logLevel: 'warn', build: { outDir: dir, emptyOutDir: true, sourcemap: false } });
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * A browser for a test file; each test opens its own context or page in it. Under scripts/test-runner/run-tests.mjs the files
 * share one Chromium (NDBTOP_TEST_CHROMIUM_WS, scripts/test-runner/chromium-server.ts): closing this only disconnects.
 */
export async function launchChromium(): Promise<Browser> {
  const shared = process.env.NDBTOP_TEST_CHROMIUM_WS;
  if (shared) return chromium.connect(shared);
  return chromium.launch(await chromiumLaunchOptions());
}

export interface Stack {
  readonly url: string;
  readonly engine: EngineHost;
  readonly server: ServeServer;
  readonly simulator: SqlSimulator;
  close(): Promise<void>;
}

/**
 * The real thing over real sockets: simulator (TCP) → engine → serve mode (HTTP + WebSocket) on 127.0.0.1:0
 * unless `serve.port` says otherwise.
 * `prepare` sees the engine before anything else runs (before its first one-second tick).
 */
export async function startStack(
  staticDir: string,
  options: Partial<CreateEngineOptions> = {},
  prepare?: (engine: Awaited<ReturnType<typeof createEngine>>) => void,
  serve: Pick<ServeOptions, 'https' | 'port' | 'allowChanges'> = {},
): Promise<Stack> {
  const engine = await createEngine({ host: 'serve', pollIntervalMs: 500, ...options });
  prepare?.(engine);
  const simulator = engine.simulator;
  if (!simulator) throw new Error('the stack needs the built-in simulator');
  // These pages are the operator's own dashboard: acknowledging alerts and watching profiles must work.
  const server = await startServeServer({ engine, staticDir, host: '127.0.0.1', port: 0, allowChanges: true, ...serve }).catch(async (err: unknown) => {
    await engine.close();
    throw err;
  });
  return {
    url: server.url,
    engine,
    server,
    simulator,
    async close() {
      await server.close();
      await engine.close();
    },
  };
}

/**
 * Waits for an expression evaluated in the page to be truthy; generous, because the machine is shared and slow.
 * Polls through the DevTools protocol, which the page's CSP (no eval) does not apply to, unlike waitForFunction.
 */
export async function waitInPage(page: Page, expression: string, timeout = 30_000): Promise<void> {
  await valueInPage(page, expression, timeout);
}

/** What `expression` evaluates to in the page once it is truthy: a condition and what it saw, in one look. */
export async function valueInPage<T>(page: Page, expression: string, timeout = 30_000): Promise<T> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = (await page.evaluate(expression)) as T;
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeout} ms waiting for: ${expression}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Where each selector's element is in the viewport (as `boundingBox()` says, null when absent), in one look. */
export function boxesInPage(page: Page, selectors: readonly string[]): Promise<Array<{ x: number; y: number; width: number; height: number } | null>> {
  // As text: this module is type-checked without the DOM's types.
  return page.evaluate(`${JSON.stringify(selectors)}.map((sel) => {
    const r = document.querySelector(sel)?.getBoundingClientRect();
    return r ? { x: r.x, y: r.y, width: r.width, height: r.height } : null;
  })`);
}

export async function screenshot(page: Page, name: string): Promise<string> {
  const path = join(tmpdir(), `ndbtop-${name}.png`);
  await page.screenshot({ path });
  return path;
}

/**
 * One renderer build and one Chromium for a test file: registers node:test's before/after and returns a getter for
 * both (which throws if called outside a test of that file).
 */
export function browserSuite(): () => { dir: string; browser: Browser } {
  let built: Awaited<ReturnType<typeof buildRenderer>> | null = null;
  let browser: Browser | null = null;
  before(async () => {
    if (NO_BROWSER) return;
    built = await buildRenderer();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await built?.remove();
  });
  return () => {
    if (!built || !browser) throw new Error('before() did not run');
    return { dir: built.dir, browser };
  };
}

/**
 * A failed wait says only what it waited for; a run on a loaded CI machine cannot be watched, so the error also
 * tells what the page showed then (header, alerts, grid) and where its screenshot is.
 */
async function withPageState(err: unknown, page: Page): Promise<unknown> {
  if (!(err instanceof Error) || page.isClosed()) return err;
  const state = await page
    .evaluate(`(() => {
      const text = (sel) => [...document.querySelectorAll(sel)].map((e) => e.textContent.replace(/\\s+/g, ' ').trim().slice(0, 160));
      const grid = document.querySelector('[data-testid="node-grid"]');
      return JSON.stringify({
        header: text('.app-header'),
        alerts: text('[data-testid="alert"], [data-testid="alert-group"]'),
        grid: grid && { density: grid.dataset.density, height: grid.clientHeight, width: grid.clientWidth, nodes: grid.querySelectorAll('[data-status]').length },
        view: document.querySelector('main')?.dataset.view,
      });
    })()`)
    .catch((e: unknown) => `(unreadable: ${String(e).slice(0, 80)})`);
  const shot = await screenshot(page, `failed-${Date.now()}`).catch(() => '(no screenshot)');
  err.message += `\n  the page then: ${String(state)}\n  screenshot: ${shot}`;
  return err;
}

export type StackOptions = Parameters<typeof startStack>[1];

/**
 * A fresh stack and page for one test, both closed whatever happens; the page must not throw. `ready` runs once the
 * page is loaded, before the body (a wait for the grid, probes to install).
 */
export async function withStackPage(
  suite: () => { dir: string; browser: Browser },
  options: StackOptions,
  viewport: { width: number; height: number },
  body: (page: Page, stack: Stack) => Promise<void>,
  ready: (page: Page) => Promise<unknown> = async () => undefined,
): Promise<void> {
  const { dir, browser } = suite();
  const stack = await startStack(dir, options);
  try {
    await withPage(browser, stack.url, viewport, async (page) => {
      await ready(page);
      await body(page, stack);
    });
  } finally {
    await stack.close();
  }
}

/** A page on `url` for one test, closed whatever happens; it must not throw, and a failure says what it showed. */
export async function withPage(browser: Browser, url: string, viewport: { width: number; height: number }, body: (page: Page) => Promise<void>): Promise<void> {
  const page = await browser.newPage({ viewport });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  try {
    await page.goto(url);
    await body(page);
    assert.deepEqual(errors, [], 'the page threw');
  } catch (err) {
    throw await withPageState(err, page);
  } finally {
    await page.close();
  }
}
