import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { test } from 'node:test';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import type { ClusterSnapshot } from '../../../electron/contract/index.js';
import { CLI_ARGS } from '../../../electron/cli/test/run-cli.js';
import { MgmClient } from '../../../native-mgm/index.js';
import { startSimulator } from '../../../native-mgm/sim/index.js';
import { NO_BROWSER, boxesInPage, browserSuite, withStackPage, screenshot, waitInPage, type Stack, type StackOptions } from '../harness.js';
import { attr, recordAttributes, seen } from '../page-probe.js';

const skip = NO_BROWSER ?? false;
if (NO_BROWSER) console.log(`# renderer e2e skipped: ${NO_BROWSER}`);

const chromium = browserSuite();

/** A fresh stack and page per test; both closed whatever happens. */
function withDashboard(options: StackOptions, body: (page: Page, stack: Stack) => Promise<void>, viewport = { width: 1600, height: 1000 }): Promise<void> {
  return withStackPage(chromium, options, viewport, body, async (page) => {
    await page.waitForSelector('[data-testid^="node-"][data-status]', { timeout: 30_000 });
    await recordAttributes(page);
  });
}

async function engineSnapshot(stack: Stack): Promise<ClusterSnapshot> {
  const res = await fetch(new URL('/api/snapshot', stack.url));
  return (await res.json()) as ClusterSnapshot;
}

async function waitForStatus(page: Page, nodeId: number, predicate: string, timeout = 30_000): Promise<void> {
  await waitInPage(page, `(() => { const s = document.querySelector('[data-testid="node-${nodeId}"]')?.dataset.status; return s !== undefined && (${predicate}); })()`, timeout);
}

test('the grid shows every node as the engine and `ndbtop show --json` see it', { skip }, async () => {
  await withDashboard({ simulator: { scenario: 'steady', dataNodes: 4, apiNodes: 6, connectedApiNodes: 2 } }, async (page, stack) => {
    const { stdout } = await promisify(execFile)(process.execPath, [...CLI_ARGS, 'show', '-c', stack.simulator.connectstring, '--json'], { encoding: 'utf8' });
    const shown = JSON.parse(stdout) as { nodes: Array<{ nodeId: number; type: string; status: string; address: string | null }> };
    const snapshot = await engineSnapshot(stack);
    assert.deepEqual(
      snapshot.nodes.map((n) => [n.nodeId, n.type, n.status]),
      shown.nodes.map((n) => [n.nodeId, n.type, n.status]),
    );
    const free = snapshot.nodes.filter((n) => n.type === 'API' && n.status !== 'CONNECTED' && n.address === null);
    for (const node of snapshot.nodes) {
      if (free.includes(node)) continue;
      assert.equal(await attr(page, `node-${node.nodeId}`, 'data-status'), node.status, `node ${node.nodeId}`);
      assert.equal(await attr(page, `node-${node.nodeId}`, 'data-start-phase'), String(node.startPhase));
    }
    assert.ok(free.length > 0);
    assert.match((await page.textContent('[data-testid="free-api-slots"]')) ?? '', new RegExp(`\\+ ${free.length} free slot`));
    for (const g of snapshot.nodeGroups) assert.equal(await attr(page, `nodegroup-${g.nodeGroup}`, 'data-health'), g.health);
    assert.equal(await attr(page, 'connection-state', 'data-state'), 'simulated');
    await page.keyboard.press('3');
    await waitInPage(page, `Number(document.querySelector('[data-testid="throughput-chart"]')?.dataset.points) > 1`);
    await screenshot(page, 'e2e-throughput');
  });
});

test('a rolling restart driven through the protocol shows start phases advancing and node-group health changing', { skip }, async () => {
  await withDashboard({ simulator: { scenario: 'steady', dataNodes: 4, speed: 2 } }, async (page, stack) => {
    const snapshot = await engineSnapshot(stack);
    const firstOfEachGroup = snapshot.nodeGroups.map((g) => g.nodeIds[0] ?? 0);
    const client = new MgmClient({ connectstring: stack.simulator.connectstring, slowRequestTimeoutMs: 120_000 });
    await client.connect();
    try {
      for (const nodeId of firstOfEachGroup) {
        await client.restart([nodeId]);
        await waitForStatus(page, nodeId, `s === 'STARTING'`, 60_000);
        await screenshot(page, `e2e-restart-${nodeId}`);
        await waitForStatus(page, nodeId, `s === 'STARTED'`, 120_000);
      }
    } finally {
      client.close();
    }
    const record = await seen(page);
    for (const nodeId of firstOfEachGroup) {
      const phases = (record.phase[String(nodeId)] ?? []).filter((p) => p > 0);
      assert.ok(phases.length >= 3, `node ${nodeId} showed phases ${phases.join(',')}`);
      assert.deepEqual(phases, [...phases].sort((a, b) => a - b), 'phases only go forward');
      assert.ok(record.status[String(nodeId)]?.includes('STARTING'));
    }
    for (const g of snapshot.nodeGroups) {
      const health = record.health[String(g.nodeGroup)] ?? [];
      assert.ok(health.includes('DEGRADED') && health.at(-1) === 'OK', `NG ${g.nodeGroup} went ${health.join(' → ')}`);
    }
    await page.keyboard.press('2');
    await page.waitForSelector('[data-testid="rolling-restart"][data-state="running"], [data-testid="rolling-restart"][data-state="complete"]', { timeout: 30_000 });
    await page.waitForSelector(`[data-testid="timeline-${firstOfEachGroup[0]}"] [data-status="STARTING"]`, { timeout: 30_000 });
    await screenshot(page, 'e2e-restart-timeline');
  });
});

test('node failures raise alerts that stay until acknowledged, folded so the strip stays a few rows high', { skip }, async () => {
  await withDashboard({ simulator: { scenario: 'steady', dataNodes: 4, speed: 4 } }, async (page, stack) => {
    const dataNodes = (await engineSnapshot(stack)).nodes.filter((n) => n.type === 'NDB').map((n) => n.nodeId);
    const first = dataNodes[0] ?? 0;
    const crash = { autoRestart: true, downMs: 2000 };
    stack.simulator.model.failNode(first, crash);
    await page.waitForSelector(`[data-testid="alert"][data-kind="node-down"][data-node="${first}"]`, { timeout: 30_000 });
    await waitForStatus(page, first, `s !== 'STARTED'`);
    await screenshot(page, 'e2e-node-failure');
    // Each node fails and comes back (the simulator's angel restarts it): its alerts resolve but stay pinned.
    await waitForStatus(page, first, `s === 'STARTED'`, 120_000);
    for (const victim of dataNodes.slice(1)) {
      stack.simulator.model.failNode(victim, crash);
      await waitForStatus(page, victim, `s !== 'STARTED'`);
      await waitForStatus(page, victim, `s === 'STARTED'`, 120_000);
    }
    const open = () => page.evaluate(`window.__ndbtopStore.getState().live.alerts.filter((a) => !a.acknowledged).length`);
    await waitInPage(page, `Number(document.querySelector('[data-testid="alerts-resolved"]')?.dataset.count) >= ${dataNodes.length * 2}`, 60_000);
    assert.ok(Number(await open()) >= dataNodes.length * 2);
    const strip = await page.locator('[data-testid="alerts"]').boundingBox();
    const row = await page.locator('[data-testid="alert-fold"]').boundingBox();
    assert.ok(strip && row, 'the strip and its fold line are shown');
    assert.ok(strip.height <= row.height * 5, `the strip is ${strip.height} px high for ${String(await open())} alerts`);
    await screenshot(page, 'e2e-alerts-folded');
    await page.click('[data-testid="alerts-resolved"] button[aria-expanded]');
    await page.waitForSelector(`[data-testid="alert-review"] [data-testid="alert"][data-kind="node-down"][data-node="${first}"]`);
    await page.click('[data-testid="ack-resolved"]');
    await page.waitForSelector('[data-testid="alerts-resolved"]', { state: 'detached', timeout: 30_000 });
    await waitInPage(page, `window.__ndbtopStore.getState().live.alerts.every((a) => a.acknowledged || a.resolvedAt === null)`);
  });
});

/**
 * The largest cluster in dashboard mode: every data node, the management nodes and the API summary on screen, in the
 * density the screen allows; a failed node reads NO CONTACT, no status word is cut, a click opens the card.
 */
function largestClusterFits(width: number, height: number, density: 'compact' | 'dense'): Promise<void> {
  const simulator = { scenario: 'steady' as const, dataNodes: 144, mgmNodes: 2, apiNodes: 109, connectedApiNodes: 40, replicas: 2 };
  return withDashboard(
    { simulator },
    async (page, stack) => {
      const dataNodes = (await engineSnapshot(stack)).nodes.filter((n) => n.type === 'NDB').map((n) => n.nodeId);
      assert.equal(dataNodes.length, 144);
      await page.keyboard.press('f');
      await page.waitForSelector(`.app.dashboard [data-testid="node-grid"][data-density="${density}"]`);
      const victim = dataNodes[77] ?? 0;
      stack.simulator.model.failNode(victim);
      await waitForStatus(page, victim, `s === 'NO_CONTACT'`);
      assert.equal((await page.textContent(`[data-testid="node-${victim}"] .tile-status`))?.trim(), 'NO CONTACT');
      const cut = await page.$$eval('.tile-status', (els) => els.filter((e) => e.scrollWidth > e.clientWidth || e.scrollHeight > e.clientHeight).map((e) => e.textContent));
      assert.deepEqual(cut, [], 'no tile cuts its status word');
      const crowded = await page.$$eval('.tile-head', (els) => els.filter((e) => e.scrollWidth > e.clientWidth).map((e) => e.textContent));
      assert.deepEqual(crowded, [], 'no tile runs its id, master mark and memory number past its edge');
      await page.waitForSelector(`[data-testid="alert"][data-kind="node-down"][data-node="${victim}"]`);
      // The degraded group's header keeps its badge and live count whole too.
      const headers = await page.$$eval('.group-block .group-head', (els) => els.filter((e) => e.scrollWidth > e.clientWidth).map((e) => e.textContent));
      assert.deepEqual(headers, [], 'no node group header is cut');
      await screenshot(page, `e2e-${density}-144-${width}`);
      const boxes = await boxesInPage(page, dataNodes.map((id) => `[data-testid="node-${id}"]`));
      dataNodes.forEach((id, i) => {
        const box = boxes[i];
        assert.ok(box, `node ${id} is rendered`);
        assert.ok(box.x >= 0 && box.y >= 0 && box.x + box.width <= width && box.y + box.height <= height, `node ${id} at ${JSON.stringify(box)} is off screen`);
      });
      const others = ['node-145', 'node-146', 'free-api-slots'];
      (await boxesInPage(page, others.map((id) => `[data-testid="${id}"]`))).forEach((box, i) => {
        assert.ok(box && box.y >= 0 && box.y + box.height <= height, `${others[i]} (management nodes, API summary) on screen too`);
      });
      await page.click(`[data-testid="node-${victim}"]`);
      await page.waitForSelector('[data-testid="node-detail"][data-status="NO_CONTACT"]');
      await page.keyboard.press('Escape');
      await page.waitForSelector('[data-testid="node-detail"]', { state: 'detached' });
    },
    { width, height },
  );
}

test('144 data nodes fit one 1920×1080 dashboard as tiles; a failed node reads NO CONTACT; a click opens its card', { skip }, () => largestClusterFits(1920, 1080, 'compact'));

test('144 data nodes fit one 1280×720 dashboard as dense tiles, memory numbers and status words whole', { skip }, () => largestClusterFits(1280, 720, 'dense'));

test('a restart floods the log with failure handling about one node: one folded row with its count', { skip }, async () => {
  await withDashboard({ simulator: { scenario: 'steady', dataNodes: 16, speed: 4 } }, async (page, stack) => {
    const victim = (await engineSnapshot(stack)).nodes.filter((n) => n.type === 'NDB')[5]?.nodeId ?? 0;
    await page.keyboard.press('4');
    const flood = `window.__ndbtopStore.getState().live.events.filter((e) => e.name === 'NodeFailCompleted' && e.subjectNodeId === ${victim})`;
    await stack.simulator.model.restartNode(victim);
    await waitInPage(page, `${flood}.length >= 3`, 60_000);
    const rows = `[...document.querySelectorAll('[data-testid="event-row"][data-subject="${victim}"]')].filter((r) => r.querySelector('.ev-text').textContent.includes('failure handling of node ${victim} completed'))`;
    await waitInPage(page, `${rows}.length === 1 && Number(${rows}[0].dataset.count) === ${flood}.length`);
    await page.click(`[data-testid="event-row"][data-count="${String(await page.evaluate(`${flood}.length`))}"] .ev-count`);
    const detail = (await page.textContent('[data-testid="event-fold-detail"]')) ?? '';
    assert.match(detail, /reported by node/);
    await screenshot(page, 'e2e-event-fold');
  });
});

test('losing the management server in use shows the failover in the header', { skip }, async () => {
  await withDashboard({ simulator: { scenario: 'steady', dataNodes: 2, mgmNodes: 2 } }, async (page, stack) => {
    const inUse = (await engineSnapshot(stack)).connection.mgmd?.nodeId;
    assert.ok(inUse !== undefined && inUse !== null);
    await stack.simulator.stopMgmd(inUse);
    await page.waitForSelector('[data-testid="connection-state"][data-state="failed-over"]', { timeout: 60_000 });
    await screenshot(page, 'e2e-failover');
    assert.equal((await page.textContent('[data-testid="connection-state"]'))?.trim(), 'FAILED OVER');
  });
});

test('pause freezes the screen while data keeps coming; resume shows what happened', { skip }, async () => {
  await withDashboard({ simulator: { scenario: 'steady', dataNodes: 4 } }, async (page, stack) => {
    const victim = (await engineSnapshot(stack)).nodes.filter((n) => n.type === 'NDB')[1]?.nodeId ?? 0;
    await page.keyboard.press('p');
    await page.waitForSelector('[data-testid="pause"][aria-pressed="true"]');
    stack.simulator.model.failNode(victim);
    await waitInPage(page, `window.__ndbtopStore.getState().live.nodes.get(${victim})?.status !== 'STARTED'`);
    assert.equal(await attr(page, `node-${victim}`, 'data-status'), 'STARTED', 'the paused screen must not change');
    await screenshot(page, 'e2e-paused');
    await page.keyboard.press('p');
    await waitForStatus(page, victim, `s !== 'STARTED'`);
  });
});

test('event filters and keyboard shortcuts', { skip }, async () => {
  await withDashboard({ simulator: { scenario: 'steady', dataNodes: 4 } }, async (page, stack) => {
    const victim = (await engineSnapshot(stack)).nodes.find((n) => n.type === 'NDB')?.nodeId ?? 0;
    stack.simulator.model.failNode(victim);
    await page.keyboard.press('4');
    await waitInPage(page, `document.querySelectorAll('[data-testid="event-row"]').length >= 3`);
    await page.keyboard.press('/');
    await waitInPage(page, `document.activeElement?.dataset.testid === 'event-search'`);
    const all = Number(await attr(page, 'event-log', 'data-count'));
    const word = ((await page.textContent('[data-testid="event-row"] .ev-text')) ?? '').split(/\s+/).find((w) => w.length > 4) ?? 'node';
    await page.keyboard.type(word);
    await waitInPage(page, `Number(document.querySelector('[data-testid="event-log"]').dataset.count) < ${all} || ${all} === 1`);
    for (const text of await page.$$eval('[data-testid="event-row"] .ev-text', (els) => els.map((e) => e.textContent ?? ''))) {
      assert.ok(text.toLowerCase().includes(word.toLowerCase()), `"${text}" does not contain "${word}"`);
    }
    await page.keyboard.press('Escape');
    await page.fill('[data-testid="event-search"]', '');
    await page.selectOption('[data-testid="event-node"]', String(victim));
    await waitInPage(page, `[...document.querySelectorAll('[data-testid="event-row"]')].every((r) => r.dataset.source === '${victim}' || r.dataset.subject === '${victim}')`);
    assert.ok(Number(await attr(page, 'event-log', 'data-count')) > 0);
    await page.selectOption('[data-testid="event-severity"]', 'ALERT');
    await waitInPage(page, `[...document.querySelectorAll('[data-testid="event-row"]')].every((r) => r.dataset.severity === 'ALERT')`);
    await screenshot(page, 'e2e-events-filtered');
    await page.locator('body').click({ position: { x: 5, y: 500 } });
    await page.keyboard.press('?');
    await page.waitForSelector('[data-testid="help"]');
    await screenshot(page, 'e2e-help');
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="help"]', { state: 'detached' });
    await page.keyboard.press('3');
    await page.waitForSelector('[data-testid="throughput-chart"]');
    await page.keyboard.press('1');
    await page.waitForSelector('[data-testid="node-grid"]');
    await page.keyboard.press('f');
    await page.waitForSelector('.app.dashboard');
    await screenshot(page, 'e2e-dashboard');
  });
});

test('a saved profile is watched and shown; the header switches between clusters and each keeps its own nodes', { skip }, async () => {
  const other = await startSimulator({ scenario: 'steady', dataNodes: 6, replicas: 2 });
  try {
    await withDashboard({ simulator: { scenario: 'steady', dataNodes: 2 } }, async (page) => {
      await page.keyboard.press('5');
      await page.fill('[aria-label="profile name"]', 'lab');
      await page.fill('[aria-label="connect string"]', other.connectstring);
      await page.click('text=Save profile');
      await page.click('[data-testid="watch-profile-lab"]');
      // Node 6 is a data node (STARTED) in the second cluster and an API node (CONNECTED, or a folded free slot) in the first.
      await page.keyboard.press('1');
      await waitInPage(page, `document.querySelectorAll('[data-testid="cluster-select"] option').length === 2`);
      await waitForStatus(page, 6, `s === 'STARTED'`);
      assert.match((await page.textContent('.cluster-name')) ?? '', /lab/);
      const first = await page.$$eval('[data-testid="cluster-select"] option', (os) => (os as HTMLOptionElement[]).find((o) => !o.textContent?.includes('lab'))?.value ?? '');
      await page.selectOption('[data-testid="cluster-select"]', first);
      await waitInPage(page, `!document.querySelector('.cluster-name')?.textContent?.includes('lab')`);
      await waitInPage(page, `document.querySelector('[data-testid="node-2"]')?.dataset.status === 'STARTED' && document.querySelector('[data-testid="node-6"]')?.dataset.status !== 'STARTED'`);
      await screenshot(page, 'e2e-cluster-switch');
    });
  } finally {
    await other.close();
  }
});
