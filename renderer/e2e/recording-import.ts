import type { Page } from 'playwright-core';

export const IMPORT_INPUT = '[data-testid="import-recording"]';
export const IMPORTED_ROWS = `document.querySelectorAll('[data-testid="run-row"][data-imported="true"]').length`;

/** Chromium's own network throttling (DevTools protocol): a loopback upload of a few MiB takes seconds, as over a slow link. */
export async function throttleUploads(page: Page, bytesPerSecond: number): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: bytesPerSecond });
}

export interface ProgressStep {
  stage: string;
  value: number;
  max: number;
}

/** Installed in the page: every value the import's progress bar shows, so a test sees a bar that moved. */
export async function recordImportProgress(page: Page): Promise<void> {
  await page.evaluate(`(() => {
    const steps = (window.__importProgress = []);
    const scan = () => {
      const el = document.querySelector('[data-testid="import-progress"]');
      const bar = el?.querySelector('progress');
      if (!el || !bar) return;
      const step = { stage: el.dataset.stage, value: bar.value, max: bar.max };
      const last = steps[steps.length - 1];
      if (!last || last.stage !== step.stage || last.value !== step.value || last.max !== step.max) steps.push(step);
    };
    new MutationObserver(scan).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  })()`);
}

export async function importProgress(page: Page): Promise<ProgressStep[]> {
  return (await page.evaluate('window.__importProgress')) as ProgressStep[];
}
