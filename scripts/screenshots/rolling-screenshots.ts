/**
 * The Restarts view with a rolling restart ndbtop conducts, at 1920×1080 and 1280×720, dark and light, for 4 and 48
 * data nodes, each with its SQL node (restart_info's phases shown): the second step is held in its data copy
 * (`stalledStarts`), so every shot shows the plan mid-way with phases, baselines and ETAs.
 *   node --import tsx scripts/screenshots/rolling-screenshots.ts [outDir]
 */
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine } from '../../electron/engine/create-engine.js';
import { startServeServer } from '../../electron/serve/serve-server.js';
import { parseSqlUrl } from '../../ndbinfo/client/sql-url.js';
import { startSqlSimulator } from '../../ndbinfo/sim/index.js';
import { buildRenderer, launchChromium, waitInPage } from '../../renderer/e2e/harness.js';

const SIZES = [
  { width: 1920, height: 1080 },
  { width: 1280, height: 720 },
] as const;
const THEMES = ['dark', 'light'] as const;
/** Start phase the second step's nodes are held before: they stay in the copy of the data from live nodes. */
const HOLD_BEFORE_PHASE = 4;

async function until(what: string, probe: () => Promise<boolean>, timeoutMs = 180_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function main(): Promise<void> {
  const outDir = process.argv[2] ?? join(tmpdir(), `ndbtop-rolling-screens-${Date.now()}`);
  await mkdir(outDir, { recursive: true });
  const built = await buildRenderer();
  const browser = await launchChromium();
  try {
    for (const dataNodes of [4, 48]) {
      const sim = await startSqlSimulator({ scenario: 'idle', dataNodes, replicas: 2, speed: 1, sql: { port: 0 } });
      const sql = sim.sql;
      if (!sql) throw new Error('the simulator has no SQL node');
      const engine = await createEngine({ host: 'serve', clusters: [{ name: `${dataNodes} data nodes`, connectstring: sim.connectstring, sql: { addresses: [parseSqlUrl(sql.url)], password: undefined } }], actionsEnabled: true, pollIntervalMs: 500 });
      const server = await startServeServer({ engine, staticDir: built.dir, host: '127.0.0.1', port: 0 });
      try {
        await until('every data node STARTED', async () => (await engine.handlers.getSnapshot({})).nodes.filter((n) => n.type === 'NDB' && n.status === 'STARTED').length === dataNodes);
        const plan = await engine.handlers.planRollingRestart({ order: 'node-group', pauseMs: 0 });
        for (const id of plan.steps[1]?.nodes ?? []) sim.model.stalledStarts.set(id, HOLD_BEFORE_PHASE);
        await engine.handlers.startRollingRestart({ planId: plan.planId });
        await until('step 2 in its data copy', async () => {
          const v = await engine.handlers.getRollingRestart({});
          const s = await engine.handlers.getSnapshot({});
          const held = plan.steps[1]?.nodes ?? [];
          return v?.currentStep === 2 && held.every((id) => s.ndbinfoNodes?.find((n) => n.nodeId === id)?.restart?.statusName === 'COPY_FRAGMENTS_STARTED');
        });
        for (const viewport of SIZES) {
          for (const theme of THEMES) {
            const page = await browser.newPage({ viewport, colorScheme: theme });
            await page.goto(`${server.url}#restarts`);
            await page.waitForSelector('[data-testid="restart-phases"] tbody tr', { timeout: 60_000 });
            await waitInPage(page, `document.querySelector('[data-testid="rolling-plan-eta"]')?.dataset.finishAt !== undefined && document.querySelector('[data-testid="rolling-halt"]')?.disabled === false`);
            await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
            const path = join(outDir, `restarts-rolling-${dataNodes}nodes-${viewport.width}x${viewport.height}-${theme}.png`);
            await page.screenshot({ path });
            console.log(path);
            await page.close();
          }
        }
      } finally {
        await server.close();
        await engine.close();
        await sim.close();
      }
    }
  } finally {
    await browser.close();
    await built.remove();
  }
}

await main();
