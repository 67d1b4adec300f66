import { buildRenderer, launchChromium, startStack, waitInPage } from '../renderer/e2e/harness.js';
const out = process.argv[2] ?? '/tmp/ui23/nav';
const nodes = Number(process.argv[3] ?? 4);
const built = await buildRenderer();
const browser = await launchChromium();
const stack = await startStack(built.dir, { simulator: { scenario: 'steady', dataNodes: nodes, replicas: 2 }, actionsEnabled: true });
try {
  for (const viewport of [{ width: 1280, height: 720 }, { width: 1920, height: 1080 }]) {
    for (const theme of ['dark', 'light'] as const) {
      const page = await browser.newPage({ viewport, colorScheme: theme });
      await page.goto(stack.url);
      await page.waitForSelector('[data-testid^="node-"][data-status]', { timeout: 60_000 });
      await waitInPage(page, `Number(window.__ndbtopStore.getState().shown.historyVersion) > 4`, 60_000);
      await new Promise((r) => setTimeout(r, 1500));
      const nav = await page.evaluate(`(() => { const n = document.querySelector('.app-nav'); const r = n.getBoundingClientRect(); return { h: r.height, sw: n.scrollWidth, cw: n.clientWidth, kids: [...n.children].map((c) => { const b = c.getBoundingClientRect(); return [c.textContent, Math.round(b.left), Math.round(b.top), Math.round(b.width)]; }) }; })()`);
      console.log(viewport.width, theme, JSON.stringify(nav));
      console.log('density', await page.evaluate(`document.querySelector('[data-testid="node-grid"]')?.dataset.density`));
      await page.screenshot({ path: `${out}-${nodes}-${viewport.width}-${theme}.png` });
      await page.close();
    }
  }
} finally {
  await stack.close();
  await browser.close();
  await built.remove();
}
