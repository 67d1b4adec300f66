import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import type { RollingPlanView } from '../../../electron/contract/index.js';
import { NO_BROWSER, browserSuite, screenshot, startStack, waitInPage } from '../harness.js';

const skip = NO_BROWSER ?? false;
const suite = browserSuite();

const planIn = (page: Page): Promise<RollingPlanView | null> => page.evaluate('window.__ndbtopStore.getState().live.rollingPlan') as Promise<RollingPlanView | null>;

/**
 * The answers to the page's requests to plan reach it 300 ms late, as on a loaded machine: the plan's push (state
 * "planned") comes before them, while the panel still waits for its answer.
 */
function slowPlanAnswers(page: Page): Promise<void> {
  return page.routeWebSocket(/\/ws/, (ws) => {
    const server = ws.connectToServer();
    const planIds = new Set<number>();
    ws.onMessage((m) => {
      const f = JSON.parse(String(m)) as { id?: number; name?: string };
      if (f.name === 'planRollingRestart' && f.id !== undefined) planIds.add(f.id);
      server.send(m);
    });
    server.onMessage((m) => {
      const f = JSON.parse(String(m)) as { type?: string; id?: number };
      if (f.type === 'ndbtop:response' && f.id !== undefined && planIds.has(f.id)) setTimeout(() => ws.send(m), 300);
      else ws.send(m);
    });
  });
}

/**
 * Plan and start from the panel with the keyboard alone: Tab from the order field to Plan, Enter, Tab to Start, Enter.
 * `allowUnchecked`: the NDB checks that cannot be made (no SQL source: the redo fill) let the steps go.
 */
async function planAndStartByKeyboard(page: Page, allowUnchecked = false): Promise<void> {
  // The controls are enabled once the page knows operator actions are on (getAppInfo).
  await waitInPage(page, `document.querySelector('[data-testid="rolling-plan"]')?.disabled === false`);
  if (allowUnchecked) {
    await page.focus('[data-testid="rolling-allow-unchecked"]');
    await page.keyboard.press('Space');
  }
  await page.focus('[data-testid="rolling-order"]');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate('document.activeElement?.dataset.testid'), 'rolling-plan');
  await page.keyboard.press('Enter');
  await waitInPage(page, `document.querySelector('[data-testid="rolling-conductor"]')?.dataset.state === 'planned'`);
  // The plan's push can come before the answer to Plan; the controls wait for the answer (a user tabs on once Start is lit).
  await waitInPage(page, `document.querySelector('[data-testid="rolling-start"]')?.disabled === false`);
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate('document.activeElement?.dataset.testid'), 'rolling-start');
  await page.keyboard.press('Enter');
}

test('rolling restart from the panel with the SQL source: plan, start, progress, phases in words with a per-node ETA, the plan ETA from phase times, done; the ETA error printed', { skip }, async () => {
  const { dir, browser } = suite();
  // Speed 1: restart_info counts sim seconds, so only at speed 1 do its phase times and the wall clock agree.
  const stack = await startStack(dir, { simulator: { scenario: 'idle', dataNodes: 4, speed: 1 }, actionsEnabled: true });
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  try {
    await slowPlanAnswers(page);
    await page.goto(`${stack.url}#restarts`);
    await page.waitForSelector('[data-testid="rolling-conductor"]', { timeout: 30_000 });
    await waitInPage(page, `window.__ndbtopStore.getState().live.ndbinfo?.source.status === 'up' && [...window.__ndbtopStore.getState().live.nodes.values()].filter((n) => n.type === 'NDB' && n.status === 'STARTED').length === 4`);
    assert.match((await page.textContent('[data-testid="restart-phases"]')) ?? '', /No data node is starting/);
    await planAndStartByKeyboard(page);
    const plan = await planIn(page);
    assert.ok(plan && plan.steps.length === 2);
    // What NDB needs, checked before the first step, with its figures: one line in the log, none per node.
    await waitInPage(page, `/step 1: checked: backup none running; redo \\d+ % on node \\d+; global checkpoint [\\d.]+ s ago; arbitrator node 1/.test(document.querySelector('[data-testid="rolling-log"]')?.textContent ?? '')`, 60_000);
    const [first, second] = plan.steps.map((s) => s.nodes);
    assert.ok(first && second);

    // Step 1: its nodes' phases named as they run, no baseline yet (the simulator's first restart of them).
    const a = first[0] as number;
    await waitInPage(page, `document.querySelector('[data-testid="phases-${a}"]')?.dataset.current !== undefined && document.querySelector('[data-testid="phases-${a}"]')?.dataset.current !== ''`, 60_000);
    const words = (await page.textContent(`[data-testid="phases-${a}"] td`)) ?? '';
    assert.match(words, /^(handling the node's failure|joining the cluster|waiting for permission|copying the dictionary|joining the checkpoints|restoring fragments|executing the redo log|rebuilding indexes|copying data from live nodes|waiting for a local checkpoint|handing over event subscriptions)/);
    // Issue 36: the Restart phases table and the restart progress panel beside it say one restart state of the node
    // (read in one go, so both are of the same push), and the table names its source.
    const agree = await page.evaluate(`(() => {
      const cell = document.querySelector('[data-testid="phases-now-${a}"]');
      const panel = document.querySelector('[data-testid="restarting-${a}"]');
      return { table: cell?.childNodes[0]?.textContent ?? null, panel: panel?.textContent ?? null, source: cell?.getAttribute('title') ?? null };
    })()`);
    const { table, panel, source } = agree as { table: string | null; panel: string | null; source: string | null };
    assert.ok(table, JSON.stringify(agree));
    assert.equal(panel, `node ${a}: ${table}`);
    assert.match(source ?? '', /^from (ndbinfo restart_info|the management server)/);
    await waitInPage(page, `document.querySelector('[data-testid="rolling-step-1"]')?.dataset.state === 'done'`, 60_000);

    // Step 2: its nodes have the step-1 nodes' phases as their baseline: an ETA per node and for the plan.
    const b = second[0] as number;
    const etaShown = `document.querySelector('[data-testid="phase-eta-${b}"]')?.dataset.eta > 0 && document.querySelector('[data-testid="rolling-plan-eta"]')?.dataset.source === 'ndbinfo' && document.querySelector('[data-testid="rolling-plan-eta"]')?.dataset.finishAt > 0`;
    await waitInPage(page, `(${etaShown}) || document.querySelector('[data-testid="rolling-conductor"]')?.dataset.state === 'done'`, 60_000);
    const seen = await page.evaluate(`({ plan: window.__ndbtopStore.getState().live.rollingPlan, figures: [...window.__ndbtopStore.getState().live.ndbinfoNodes.values()].map((n) => [n.nodeId, n.restart, n.previousRestart]) })`);
    assert.ok(await page.evaluate(etaShown), `no phase ETA while step 2 ran: ${JSON.stringify(seen)}`);
    const predictedAt = Date.now();
    const predicted = Number(await page.getAttribute('[data-testid="rolling-plan-eta"]', 'data-finish-at'));
    const nodePredicted = Number(await page.getAttribute(`[data-testid="phase-eta-${b}"]`, 'data-eta'));
    assert.match((await page.textContent(`[data-testid="phase-eta-${b}"]`)) ?? '', /from this round/);
    const running = await page.$$eval(`[data-testid="phases-${b}"] td[data-state="done"]`, (cells) => cells.length);
    assert.ok(running >= 1, 'phases done so far are timed');

    await waitInPage(page, `document.querySelector('[data-testid="rolling-conductor"]')?.dataset.state === 'done'`, 60_000);
    const done = await planIn(page);
    assert.ok(done);
    const finishedAt = [...done.log].reverse().find((l) => l.text.startsWith('done:'))?.at ?? 0;
    const nodeBack = (await page.evaluate(`window.__ndbtopStore.getState().live.rollingRestart?.restarts.find((r) => r.nodeId === ${b})?.to`)) as number;
    assert.deepEqual(done.steps.map((s) => s.state), ['done', 'done']);
    assert.ok(done.runId, 'recorded as a run');
    assert.match((await page.textContent('[data-testid="rolling-log"]')) ?? '', /done: restarted nodes/);
    const err = (predicted - finishedAt) / 1000;
    const lead = (finishedAt - predictedAt) / 1000;
    console.log(
      `rolling-restart ETA error: predicted finish ${new Date(predicted).toISOString()}, real ${new Date(finishedAt).toISOString()}: ${err >= 0 ? '+' : ''}${err.toFixed(1)} s over the last ${lead.toFixed(1)} s ` +
        `(${((Math.abs(err) / Math.max(1, lead)) * 100).toFixed(0)} %); node ${b}'s phase ETA ${((nodePredicted - nodeBack) / 1000).toFixed(1)} s off its return`,
    );
    assert.ok(Number.isFinite(err));

    // The Runs view shows the rolling restart as a run: each node's time down and its phases as restart_info gave them.
    await page.goto(`${stack.url}#/runs`);
    await waitInPage(page, `document.querySelector('[data-testid="run-summary"]')?.dataset.runId === '${done.runId}' && document.querySelectorAll('[data-testid="restart-row"]').length === 4`, 30_000);
    const rows = await page.$$eval('[data-testid="restart-row"]', (els) => els.map((e) => [Number((e as HTMLElement).dataset.nodeId), e.querySelector('td:last-child')?.textContent ?? '']));
    // Step by step; a step's nodes go down together, in either order.
    const ids = rows.map(([id]) => Number(id));
    assert.deepEqual([ids.slice(0, first.length).sort(), ids.slice(first.length).sort()], [[...first].sort(), [...second].sort()]);
    await page.locator('[data-testid="run-restarts"]').scrollIntoViewIfNeeded();
    console.log(`# screenshot ${await screenshot(page, 'rolling-run-restarts')}`);
    for (const [id, phases] of rows) assert.match(String(phases), /^([a-z' ]+\u00a0\d+\u00a0s)( · [a-z' ]+\u00a0\d+\u00a0s)*$/, `node ${id}: ${phases}`);
  } finally {
    await page.close();
    await stack.close();
  }
});

test('without the SQL source the phases say how to turn it on in one line, and the rolling restart runs from the management server alone; halt, resume, skip and abort by keyboard', { skip }, async () => {
  const { dir, browser } = suite();
  const stack = await startStack(dir, { simulator: { scenario: 'idle', dataNodes: 4, speed: 4, sql: false }, actionsEnabled: true });
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  try {
    await page.goto(`${stack.url}#restarts`);
    await page.waitForSelector('[data-testid="restart-phases-hint"]', { timeout: 30_000 });
    assert.match((await page.textContent('[data-testid="restart-phases-hint"]')) ?? '', /--sql/);
    await waitInPage(page, `[...window.__ndbtopStore.getState().live.nodes.values()].filter((n) => n.type === 'NDB' && n.status === 'STARTED').length === 4`);
    await planAndStartByKeyboard(page, true);
    // Halt with the keyboard while the first step runs: it stops once that step is back, nothing more is sent.
    await waitInPage(page, `!document.querySelector('[data-testid="rolling-halt"]')?.disabled`);
    await page.focus('[data-testid="rolling-halt"]');
    await page.keyboard.press('Enter');
    await waitInPage(page, `document.querySelector('[data-testid="rolling-conductor"]')?.dataset.state === 'halted'`, 60_000);
    assert.match((await page.textContent('[data-testid="rolling-halt-reason"]')) ?? '', /operator/);
    await page.focus('[data-testid="rolling-resume"]');
    await page.keyboard.press('Enter');
    await waitInPage(page, `document.querySelector('[data-testid="rolling-conductor"]')?.dataset.state === 'done'`, 60_000);
    assert.equal((await planIn(page))?.eta.source !== 'ndbinfo', true);
    assert.equal(await page.$('[data-testid="restart-phases"]'), null);

    // On the same cluster, a plan one node at a time: halted, Skip passes over the step it halted at (its node is not
    // restarted), then Abort ends the plan; each by Tab and Enter.
    await page.selectOption('[data-testid="rolling-order"]', 'node-id');
    await planAndStartByKeyboard(page);
    await waitInPage(page, `!document.querySelector('[data-testid="rolling-halt"]')?.disabled`);
    await page.focus('[data-testid="rolling-halt"]');
    await page.keyboard.press('Enter');
    await waitInPage(page, `document.querySelector('[data-testid="rolling-conductor"]')?.dataset.state === 'halted'`, 60_000);
    const halted = await planIn(page);
    const skipped = halted?.steps[(halted.currentStep ?? 0) - 1];
    assert.ok(halted?.order === 'node-id' && skipped, JSON.stringify(halted));
    const restartsOf = (id: number): Promise<number> => page.evaluate(`window.__ndbtopStore.getState().live.rollingRestart?.restarts.filter((r) => r.nodeId === ${id}).length ?? 0`) as Promise<number>;
    const before = await Promise.all(skipped.nodes.map(restartsOf));
    await page.focus('[data-testid="rolling-resume"]');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate('document.activeElement?.dataset.testid'), 'rolling-skip');
    await page.keyboard.press('Enter');
    await waitInPage(page, `window.__ndbtopStore.getState().live.rollingPlan?.steps[${skipped.step - 1}]?.state === 'skipped' && !document.querySelector('[data-testid="rolling-abort"]')?.disabled`, 30_000);
    await page.focus('[data-testid="rolling-abort"]');
    await page.keyboard.press('Enter');
    await waitInPage(page, `document.querySelector('[data-testid="rolling-conductor"]')?.dataset.state === 'aborted'`, 30_000);
    const log = (await page.textContent('[data-testid="rolling-log"]')) ?? '';
    assert.match(log, new RegExp(`step ${skipped.step}: skipped node ${skipped.nodes[0]}[\\s\\S]*aborted by the operator at step ${skipped.step + 1}`));
    assert.deepEqual(await Promise.all(skipped.nodes.map(restartsOf)), before, 'the skipped step restarted nothing');
  } finally {
    await page.close();
    await stack.close();
  }
});
