import { buildRenderer, launchChromium, startStack, waitInPage } from '../renderer/e2e/harness.js';
const out = process.argv[2] ?? '/tmp/ui23/dense';
const built = await buildRenderer();
const browser = await launchChromium();
const stack = await startStack(built.dir, { simulator: { scenario: 'idle', dataNodes: 144, mgmNodes: 2, apiNodes: 109, connectedApiNodes: 40, replicas: 2 }, actionsEnabled: true });
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 }, colorScheme: 'dark' });
  await page.goto(stack.url);
  await page.waitForSelector('[data-testid="node-grid"][data-density="dense"] [data-testid="node-144"]', { timeout: 90_000 });
  for (const id of [3, 5, 7]) void stack.simulator.model.restartNode(id, { nostart: true });
  await waitInPage(page, `document.querySelectorAll('[data-status="NOT_STARTED"]').length === 3`, 90_000);
  const api = (await stack.engine.handlers.getSnapshot({})).nodes.find((n) => n.type === 'API' && n.status === 'CONNECTED')!.nodeId;
  await stack.simulator.model.enterSingleUser(api);
  await waitInPage(page, `document.querySelectorAll('[data-status="SINGLE USER MODE"]').length > 100`, 90_000);
  await new Promise((r) => setTimeout(r, 1000));
  if (process.argv[3]) await page.addStyleTag({ content: process.argv[3] });
  await new Promise((r) => setTimeout(r, 300));
  console.log(await page.evaluate(`(() => { const t = document.querySelector('[data-status="NOT_STARTED"]'); const r = (e) => { const b = e.getBoundingClientRect(); return [e.className, Math.round(b.top*10)/10, Math.round(b.bottom*10)/10, Math.round(b.width)]; }; return JSON.stringify([r(t), ...[...t.querySelectorAll('*')].map(r)]); })()`));
  console.log('density', await page.evaluate(`document.querySelector('[data-testid="node-grid"]')?.dataset.density`));
  const cut = await page.$$eval('.tile-status', (els) => els.filter((e) => e.scrollWidth > e.clientWidth || e.scrollHeight > e.clientHeight).map((e) => e.textContent));
  console.log('cut', JSON.stringify([...new Set(cut)]), cut.length);
  for (const theme of ['dark', 'light']) {
    await page.evaluate(`document.documentElement.dataset.theme = '${theme}'`);
    await page.screenshot({ path: `${out}-${theme}.png` });
    await page.screenshot({ path: `${out}-${theme}-zoom.png`, clip: { x: 0, y: 80, width: 420, height: 200 } });
  }
} finally {
  await stack.close();
  await browser.close();
  await built.remove();
}
