import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { makeCerts } from '../../../native-mgm/tls/make-certs.js';
import { PKI_FILES } from '../../../native-mgm/tls/pki-files.js';
import { NO_BROWSER, buildRenderer, launchChromium, screenshot, startStack, waitInPage } from '../harness.js';
import { attr } from '../page-probe.js';

const skip = NO_BROWSER ?? false;

let built: Awaited<ReturnType<typeof buildRenderer>> | null = null;
let browser: Browser | null = null;
let certs = '';

before(async () => {
  if (NO_BROWSER) return;
  certs = await mkdtemp(join(tmpdir(), 'ndbtop-e2e-tls-'));
  // Ten-day certificates: inside the 30-day window, so the expiry warning must show.
  await makeCerts(certs, { days: 10 });
  built = await buildRenderer();
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await built?.remove();
  if (certs) await rm(certs, { recursive: true, force: true });
});

test('the dashboard watches a TLS-only simulated cluster: grid, TLS badge, certificates, counters and the expiry warning', { skip }, async () => {
  if (!built || !browser) throw new Error('before() did not run');
  const stack = await startStack(built.dir, {
    simulator: { scenario: 'steady', dataNodes: 2, replicas: 2, tls: { searchPath: certs, require: true } },
    clusters: [{ tls: { mode: 'strict', searchPath: certs } }],
  });
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  try {
    await page.goto(stack.url);
    // Every command but the bootstrap ones is refused in clear text, so node states prove the TLS session.
    await page.waitForSelector('[data-testid^="node-"][data-status="STARTED"]', { timeout: 30_000 });
    await waitInPage(page, `document.querySelector('[data-testid="tls-state"]')?.dataset.state === 'tls'`);
    // Client and server certificate each raise one; the strip may fold the two into one row of their kind.
    await waitInPage(page, `document.querySelector('[data-testid^="alert"][data-kind="cert-expiring"]') !== null`);
    const toggle = '[data-testid="alert-group"][data-kind="cert-expiring"] [data-testid="alert-group-toggle"]';
    const folded = (await page.$(toggle)) !== null;
    if (folded) await page.click(toggle);
    await waitInPage(page, `document.querySelectorAll('[data-testid="alert"][data-kind="cert-expiring"]').length >= 1`);
    assert.match((await page.textContent('[data-testid="alert"][data-kind="cert-expiring"]')) ?? '', /TLS certificate of the .* expires in 9 days/);
    // The kind's list lies over the page: closed again before the view bar under it is used.
    if (folded) await page.click(toggle);
    await page.click('[data-testid="view-tls"]');
    await waitInPage(page, `document.querySelector('[data-testid="tls-summary"]')?.dataset.state === 'tls'`);
    assert.match((await page.textContent('[data-testid="tls-server-cert"] [data-field="subject"]')) ?? '', /NDB Management Node/);
    assert.match((await page.textContent('[data-testid="tls-server-cert"] [data-field="issuer"]')) ?? '', /MySQL NDB Cluster First Certificate/);
    await waitInPage(page, `document.querySelectorAll('[data-testid="tls-certs"] tbody tr').length >= 1`);
    assert.equal(await attr(page, 'tls-summary', 'data-state'), 'tls');
    const upgraded = Number(await page.textContent('[data-testid="tls-stats"] [data-field="upgraded"]'));
    assert.ok(upgraded >= 2, `command and event sessions upgraded, saw ${upgraded}`);
    assert.equal(await page.textContent('[data-testid="tls-stats"] [data-field="authfail"]'), '0');
    await screenshot(page, 'e2e-tls');

    // A connection profile carries its own TLS: watched from Settings, the new cluster's sessions are TLS too.
    await page.click('[data-testid="view-settings"]');
    await page.fill('[aria-label="profile name"]', 'lab-tls');
    await page.fill('[aria-label="connect string"]', stack.simulator.connectstring);
    await page.selectOption('[data-testid="profile-tls"]', 'strict');
    await page.fill('[aria-label="TLS search path"]', certs);
    await page.click('text=Save profile');
    await waitInPage(page, `document.body.textContent.includes('TLS strict · ${certs}')`);
    await page.click('[data-testid="watch-profile-lab-tls"]');
    await page.click('[data-testid="view-nodes"]');
    await waitInPage(page, `document.querySelector('.cluster-name')?.textContent?.includes('lab-tls')`);
    await page.waitForSelector('[data-testid^="node-"][data-status="STARTED"]', { timeout: 30_000 });
    await waitInPage(page, `document.querySelector('[data-testid="tls-state"]')?.dataset.state === 'tls'`);
  } finally {
    await page.close();
    await stack.close();
  }
});

test('serve over HTTPS: the dashboard loads and updates over HTTPS and WSS', { skip }, async () => {
  if (!built || !browser) throw new Error('before() did not run');
  const https = { certFile: join(certs, PKI_FILES.mgmdCert), keyFile: join(certs, PKI_FILES.mgmdKey) };
  const stack = await startStack(built.dir, { simulator: { scenario: 'steady', dataNodes: 2, replicas: 2 } }, undefined, { https });
  // This one test ignores certificate errors: the page's certificate comes from the test's own CA, which this
  // Chromium does not trust. What is checked is that everything works over HTTPS/WSS, not the browser's PKI.
  const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  try {
    assert.match(stack.url, /^https:/);
    await page.goto(stack.url);
    await page.waitForSelector('[data-testid^="node-"][data-status="STARTED"]', { timeout: 30_000 });
    const protocol = await page.evaluate('location.protocol');
    assert.equal(protocol, 'https:');
    const before = await page.textContent('[data-testid="sample-age"]');
    await waitInPage(page, `document.querySelector('[data-testid="sample-age"]')?.textContent !== ${JSON.stringify(before)}`);
  } finally {
    await context.close();
    await stack.close();
  }
});

test('a TLS-only cluster watched without TLS: the header says REFUSED and why, an alert is raised, and serve\'s first-status wait ends with the reason', { skip }, async () => {
  if (!built || !browser) throw new Error('before() did not run');
  // serve without any TLS option against `sim --require-tls`.
  const stack = await startStack(built.dir, { simulator: { scenario: 'steady', dataNodes: 2, replicas: 2, tls: { searchPath: certs, require: true } } });
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  try {
    assert.match(stack.server.notReady ?? '', /requires TLS/, `the first-status wait's reason: ${String(stack.server.notReady)}`);
    await page.goto(stack.url);
    await waitInPage(page, `document.querySelector('[data-testid="connection-state"]')?.dataset.state === 'refused'`);
    assert.equal(await page.textContent('[data-testid="connection-state"]'), 'REFUSED');
    const problem = (await page.textContent('[data-testid="connection-problem"]')) ?? '';
    assert.match(problem, /requires TLS/);
    // The refusal is the session's: not named after whichever request met it first ("memory report: …").
    assert.doesNotMatch(problem, /memory report|get status|configuration:/);
    await page.waitForSelector('[data-testid="alert"][data-kind="connection-refused"]');
    assert.match((await page.textContent('[data-testid="alert"][data-kind="connection-refused"]')) ?? '', /refuses this session.*requires TLS/);
  } finally {
    await page.close();
    await stack.close();
  }
});
