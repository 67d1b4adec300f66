/**
 * The states issue 23 made honest, shot at 1920×1080 and 1280×720 (dark): a 48-node rolling restart at every chart
 * window, the management server lost, serve lost, a TLS-only cluster watched without TLS, a maintenance window
 * with a node failed inside it (header, chart band, the windows and the alert history), and (in both themes) the
 * 144-node benchmark's ramp-down.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startServeServer } from '../../electron/serve/serve-server.js';
import { BENCHMARK_RATES } from '../../native-mgm/sim/workload/load-profile.js';
import { makeCerts } from '../../native-mgm/tls/make-certs.js';
import { startStack, waitInPage, type Stack } from '../../renderer/e2e/harness.js';

const SIZES = [
  { width: 1920, height: 1080 },
  { width: 1280, height: 720 },
] as const;
const THEMES = ['dark', 'light'] as const;
const WINDOWS = ['1m', '5m', '15m', '1h'] as const;
const GREY = `[...document.querySelectorAll('[data-testid="node-grid"] [data-old]')].every((c) => c.dataset.old === 'true')`;

type Shoot = (page: Page, name: string) => Promise<void>;

/** One page per size on a fresh stack; `body` shoots what it shows. */
async function eachSize(browser: Browser, stack: Stack, hash: string, body: (page: Page, size: string) => Promise<void>): Promise<void> {
  for (const viewport of SIZES) {
    const page = await browser.newPage({ viewport, colorScheme: 'dark' });
    try {
      await page.goto(`${stack.url}${hash}`);
      await page.waitForSelector('[data-testid="connection-state"]');
      await body(page, `${viewport.width}x${viewport.height}`);
    } finally {
      await page.close();
    }
  }
}

/**
 * The 144-node benchmark's planned ramp-down (issue 23 item 9: it raised CRITICAL "−99 %" every cycle): the
 * Throughput view and then the Nodes view in the middle of the ramp-down, each at both sizes in both themes; whether
 * a collapse alert came after it is printed (the colour scheme switched on the same page: the ramp-down lasts 15 s, and a page per theme would
 * double the load on a machine that already drops the management server under a 144-node benchmark).
 */
async function shootRampDown(dir: string, browser: Browser, shoot: Shoot): Promise<void> {
  const stack = await startStack(dir, { simulator: { scenario: 'benchmark', dataNodes: 144, mgmNodes: 2, apiNodes: 109, connectedApiNodes: 40, replicas: 2 } });
  const pages: Array<{ page: Page; size: string }> = [];
  const bothThemes = async (page: Page, name: string): Promise<void> => {
    for (const colorScheme of THEMES) {
      await page.emulateMedia({ colorScheme });
      await shoot(page, `${name}-${colorScheme}`);
    }
  };
  try {
    for (const viewport of SIZES) {
      const page = await browser.newPage({ viewport, colorScheme: 'dark' });
      await page.goto(`${stack.url}#throughput`);
      await page.waitForSelector('[data-testid="throughput-chart"]', { timeout: 60_000 });
      pages.push({ page, size: `${viewport.width}x${viewport.height}` });
    }
    // The simulator's own load says where the benchmark is (the engine's figures would also fall on a lost link).
    const offered = (): number => stack.simulator.model.currentLoad().transPerSec;
    const peak = BENCHMARK_RATES.transPerSec;
    // At the peak first: the warm-up passes the same rates on the way up.
    let atPeak = false;
    for (const deadline = Date.now() + 300_000; !(atPeak && offered() < peak * 0.7 && offered() > peak * 0.2); await new Promise((r) => setTimeout(r, 100))) {
      if (Date.now() > deadline) throw new Error(`no ramp-down seen (${offered()} tx/s offered)`);
      atPeak ||= offered() >= peak * 0.99;
    }
    for (const { page, size } of pages) {
      // Shown falling, on a page whose figures are current (a page behind on a loaded machine catches up: the chart
      // keeps the ramp-down); then the Nodes view at the same moment (its alert strip).
      await waitInPage(page, `(() => { const s = window.__ndbtopStore.getState(); return s.ui.transport === 'open' && s.live.connection?.status === 'live' && (s.live.rates?.transactions ?? ${peak}) < ${peak * 0.8}; })()`, 30_000);
      await bothThemes(page, `states-144nodes-benchmark-rampdown-${size}`);
      await page.keyboard.press('1');
      await page.waitForSelector('main[data-view="nodes"] [data-testid="node-grid"]', { timeout: 30_000 });
      await bothThemes(page, `states-144nodes-benchmark-rampdown-nodes-${size}`);
    }
    // A collapse would be raised within the engine's window after the load is gone.
    for (const deadline = Date.now() + 120_000; offered() > 0; await new Promise((r) => setTimeout(r, 200))) {
      if (Date.now() > deadline) throw new Error('the load did not end');
    }
    await new Promise((r) => setTimeout(r, 5000));
    const collapses = (await stack.engine.handlers.getSnapshot({})).alerts.filter((a) => a.kind === 'throughput-collapse');
    console.log(`# the ramp-down raised ${collapses.length === 0 ? 'no collapse alert' : collapses.map((a) => a.message).join('; ')}`);
  } finally {
    for (const { page } of pages) await page.close();
    await stack.close();
  }
}

/** The states by name (`--state NAME` shoots one). */
export const STATE_NAMES = ['rolling', 'lost', 'tls', 'maintenance', 'rampdown'] as const;
export type StateName = (typeof STATE_NAMES)[number];

export async function shootStates(dir: string, browser: Browser, shoot: Shoot, only: readonly StateName[] = STATE_NAMES): Promise<void> {
  if (only.includes('rolling')) await shootRolling(dir, browser, shoot);
  if (only.includes('lost')) await shootLost(dir, browser, shoot);
  if (only.includes('tls')) await shootRefused(dir, browser, shoot);
  if (only.includes('maintenance')) await shootMaintenance(dir, browser, shoot);
  if (only.includes('rampdown')) await shootRampDown(dir, browser, shoot);
}

async function shootRolling(dir: string, browser: Browser, shoot: Shoot): Promise<void> {
  const rolling = await startStack(dir, { simulator: { scenario: 'rolling-restart', dataNodes: 48, replicas: 2, speed: 4 } });
  try {
    await eachSize(browser, rolling, '#restarts', async (page, size) => {
      await waitInPage(page, `window.__ndbtopStore.getState().live.rollingRestart?.done.length >= 3`, 180_000);
      for (const w of WINDOWS) {
        await page.click(`.window-picker button:has-text("${w}")`);
        await new Promise((r) => setTimeout(r, 1000));
        await shoot(page, `states-48nodes-rolling-${w}-${size}`);
      }
    });
  } finally {
    await rolling.close();
  }
}

async function shootLost(dir: string, browser: Browser, shoot: Shoot): Promise<void> {
  const lost = await startStack(dir, { simulator: { scenario: 'steady', dataNodes: 4 }, actionsEnabled: true });
  try {
    const mgm = (await lost.engine.handlers.getSnapshot({})).nodes.find((n) => n.type === 'MGM');
    if (!mgm) throw new Error('no management node');
    await lost.simulator.stopMgmd(mgm.nodeId);
    await eachSize(browser, lost, '', async (page, size) => {
      await waitInPage(page, GREY, 30_000);
      await shoot(page, `states-mgmd-lost-${size}`);
    });
    await lost.simulator.startMgmd(mgm.nodeId);
    // serve lost: a server of its own per size, closed under the open page.
    for (const viewport of SIZES) {
      const server = await startServeServer({ engine: lost.engine, staticDir: dir, host: '127.0.0.1', port: 0 });
      const page = await browser.newPage({ viewport, colorScheme: 'dark' });
      try {
        await page.goto(server.url);
        await waitInPage(page, `document.querySelectorAll('[data-testid="node-grid"] [data-old="false"]').length > 0`, 30_000);
        await server.close();
        await waitInPage(page, GREY, 30_000);
        await shoot(page, `states-serve-lost-${viewport.width}x${viewport.height}`);
      } finally {
        await page.close();
      }
    }
  } finally {
    await lost.close();
  }
}

async function shootRefused(dir: string, browser: Browser, shoot: Shoot): Promise<void> {
  const certs = await mkdtemp(join(tmpdir(), 'ndbtop-screens-tls-'));
  try {
    await makeCerts(certs, { days: 10 });
    const refused = await startStack(dir, { simulator: { scenario: 'steady', dataNodes: 4, tls: { searchPath: certs, require: true } } });
    try {
      await eachSize(browser, refused, '', async (page, size) => {
        await waitInPage(page, `document.querySelector('[data-testid="connection-state"]')?.dataset.state === 'refused'`, 30_000);
        await page.waitForSelector('[data-testid="alert"][data-kind="connection-refused"]');
        await shoot(page, `states-tls-refused-${size}`);
      });
    } finally {
      await refused.close();
    }
  } finally {
    await rm(certs, { recursive: true, force: true });
  }
}

async function shootMaintenance(dir: string, browser: Browser, shoot: Shoot): Promise<void> {
  const maintenance = await startStack(dir, { simulator: { scenario: 'steady', dataNodes: 4, speed: 4 } });
  try {
    // Criticals silenced too, so the header shows its warning (who, until when).
    await maintenance.engine.handlers.startMaintenance({ reason: 'replace the disk of node 2', durationMs: 3_600_000, silenceCritical: true, by: 'alice@ops' });
    const victim = (await maintenance.engine.handlers.getSnapshot({})).nodes.find((n) => n.type === 'NDB')?.nodeId;
    if (victim === undefined) throw new Error('no data node');
    maintenance.simulator.model.failNode(victim);
    await eachSize(browser, maintenance, '', async (page, size) => {
      await waitInPage(page, `window.__ndbtopStore.getState().live.nodes.get(${victim})?.status === 'NO_CONTACT'`, 30_000);
      await shoot(page, `states-maintenance-nodes-${size}`);
      await page.keyboard.press('3');
      // The band on the chart and on every data node's small multiple (they mount after the chart has painted).
      await page.waitForSelector('[data-testid="throughput-chart"] [data-testid="maintenance-band"]', { timeout: 30_000 });
      await waitInPage(page, `document.querySelectorAll('[data-testid="node-throughput"] [data-testid="maintenance-band"]').length === 4`, 30_000);
      await shoot(page, `states-maintenance-chart-${size}`);
      await page.keyboard.press('2');
      await page.waitForSelector('[data-testid="restart-timeline"] [data-testid="maintenance-band"]', { timeout: 30_000 });
      await page.locator('[data-testid="restart-timeline"]').scrollIntoViewIfNeeded();
      await shoot(page, `states-maintenance-restarts-${size}`);
      await page.click('[data-testid="open-maintenance"]');
      await shoot(page, `states-maintenance-panel-${size}`);
      await page.keyboard.press('Escape');
      await page.click('[data-testid="open-alert-history"]');
      await page.waitForSelector('[data-testid="history-row"][data-outcome="suppressed"]', { timeout: 15_000 });
      await shoot(page, `states-maintenance-history-${size}`);
    });
  } finally {
    await maintenance.close();
  }
}
