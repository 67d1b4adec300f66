import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { REQUESTS } from '../contract/schemas/channels.js';
import { ROOT as root } from '../../scripts/test-source.js';

// Launches the real desktop app where an Electron binary exists (a developer machine after `npx install-electron`,
// or the release runners). Nothing can download one here, so elsewhere this reports why it did not run.
const electronDir = dirname(createRequire(import.meta.url).resolve('electron/package.json'));
const binaryAvailable = existsSync(join(electronDir, 'path.txt')) && existsSync(join(electronDir, 'dist'));
const skip = binaryAvailable ? false : `Electron binary not available: ${join(electronDir, 'dist')} is missing (run \`npx install-electron\` where the network allows)`;

test('the desktop app opens on the simulated cluster and exposes exactly the contract as window.ndbtop', { skip, timeout: 120_000 }, async () => {
  for (const built of ['dist/electron/main.js', 'dist/electron/preload.cjs', 'dist/renderer/index.html']) {
    assert.ok(existsSync(join(root, built)), `${built} missing: run npm run build && npm run build:preload first`);
  }
  const { _electron } = await import('playwright-core');
  // Chromium refuses to run as root with its sandbox; CI containers run as root.
  const args = [...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), root];
  const app = await _electron.launch({ args, env: { ...process.env, NDB_CONNECTSTRING: '' } });
  try {
    const page = await app.firstWindow();
    await page.waitForLoadState('domcontentloaded');
    assert.match(page.url(), /^app:\/\/ndbtop\//);
    type Api = Record<string, (r: unknown) => Promise<unknown>>;
    const keys = await page.evaluate(() => Object.keys((globalThis as unknown as { ndbtop: Api }).ndbtop).sort());
    assert.deepEqual(keys, [...Object.keys(REQUESTS), 'onPush'].sort());
    const info = (await page.evaluate(() => (globalThis as unknown as { ndbtop: Api }).ndbtop.getAppInfo!({}))) as { host: string };
    assert.equal(info.host, 'desktop');
    const isolated = await page.evaluate(() => [typeof (globalThis as { require?: unknown }).require, typeof (globalThis as { process?: unknown }).process]);
    assert.deepEqual(isolated, ['undefined', 'undefined']);
    const snapshot = (await page.evaluate(() => (globalThis as unknown as { ndbtop: Api }).ndbtop.getSnapshot!({}))) as { connection: { mode: string } };
    assert.equal(snapshot.connection.mode, 'simulated');
  } finally {
    await app.close();
  }
});
