// Screenshot helper for the truth helper's report (not part of the product): node .shots-truth.mjs NAME URL WAITMS VIEWKEYS...
import { chromium } from 'playwright-core';
const [name, url, waitMs, ...keys] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
try {
  for (const viewport of [{ width: 1280, height: 720 }, { width: 1920, height: 1080 }]) {
    const page = await browser.newPage({ viewport });
    await page.goto(url);
    await page.waitForSelector('[data-testid^="node-"][data-status]', { timeout: 60_000 });
    await page.waitForTimeout(Number(waitMs));
    for (const k of keys) {
      await page.keyboard.press(k);
      await page.waitForTimeout(2500);
      await page.screenshot({ path: `/work/shots/truth/${name}-key${k}-${viewport.width}x${viewport.height}.png` });
    }
    await page.close();
  }
} finally {
  await browser.close();
}
