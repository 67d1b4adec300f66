import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileSecretStore } from '../../../electron/engine/core/secrets/file-secret-store.js';
import { aesCipher } from '../../../electron/engine/core/secrets/test/test-cipher.js';
import { NO_BROWSER, browserSuite, screenshot, waitInPage, withStackPage } from '../harness.js';

const skip = NO_BROWSER ?? false;
if (NO_BROWSER) console.log(`# renderer e2e skipped: ${NO_BROWSER}`);
const chromium = browserSuite();
const PASSWORD = 'E2e-keychain-pw-3141';
const state = `document.querySelector('[data-testid="sql-source-state"]')?.textContent`;

/** Settings once the page shows the cluster (a key pressed before the first snapshot lands nowhere). */
async function openSettings(page: Page): Promise<void> {
  await page.waitForSelector('[data-testid="node-2"]');
  await page.keyboard.press('5');
  await page.waitForSelector('.settings-view');
}

test("Settings: the SQL source's state and self-load; a profile's SQL nodes from the API nodes offered, or typed, reach its cluster", { skip, timeout: 90_000 }, async () => {
  await withStackPage(chromium, { simulator: { scenario: 'steady', dataNodes: 2 } }, { width: 1280, height: 900 }, async (page, stack) => {
    const sql = stack.simulator.sql;
    assert.ok(sql, 'the embedded simulator has its SQL node');
    await openSettings(page);
    await waitInPage(page, `${state} === 'UP'`);
    const port = new URL(sql.url).port;
    assert.match((await page.textContent('[data-testid="sql-source"]')) ?? '', new RegExp(`mysql://root@127\\.0\\.0\\.1:${port}`));
    await waitInPage(page, `/queries take \\d+\\.\\d % of the SQL node's time \\(\\d+ so far\\)/.test(document.querySelector('[data-testid="sql-self-load"]')?.textContent ?? '')`);

    // The connected API nodes are offered with MySQL's port: ticking one and typing the user makes its URL.
    await waitInPage(page, `document.querySelectorAll('[data-testid="profile-sql"] input[type="checkbox"]').length > 0`);
    await page.fill('[aria-label="profile name"]', 'guess');
    await page.fill('[aria-label="connect string"]', stack.simulator.connectstring);
    await page.fill('[aria-label="SQL user"]', 'monitor');
    const offered = ((await page.textContent('[data-testid="profile-sql"] label')) ?? '').trim();
    const apiAddresses = await page.evaluate(`[...document.querySelectorAll('[data-testid="profile-sql"] label')].map((l) => l.textContent.trim())`);
    assert.match(offered, /^10\.0\.0\.2\d:3306$/, 'an API node of the simulator, with MySQL\'s port');
    assert.equal((apiAddresses as string[]).length, 3, 'one per connected API node');
    await page.check('[data-testid="profile-sql"] input[type="checkbox"]');
    // Serve mode has no OS keychain: the password field is off and says where the password comes from.
    const password = page.locator('[data-testid="profile-sql-password"]');
    assert.equal(await password.getAttribute('type'), 'password');
    assert.equal(await password.getAttribute('autocomplete'), 'off');
    assert.ok(await password.isDisabled(), 'no keychain: the field is off');
    assert.equal(await password.getAttribute('aria-describedby'), 'profile-sql-password-note');
    assert.match((await page.textContent('[data-testid="profile-sql-password-note"]')) ?? '', /comes from NDBTOP_SQL_PASSWORD or --sql-password-file/);
    // Tab from the typed SQL nodes skips the disabled field and reaches Save.
    await page.focus('[aria-label="other SQL nodes"]');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate('document.activeElement?.textContent'), 'Save profile');
    await page.click('text=Save profile');
    await waitInPage(page, `document.querySelector('[data-testid="watch-profile-guess"]')?.parentElement?.textContent?.includes('SQL mysql://monitor@${offered}')`);
    assert.match((await page.textContent('[data-testid="watch-profile-guess"] >> xpath=..')) ?? '', /SQL password from NDBTOP_SQL_PASSWORD or --sql-password-file/);

    // A profile with the SQL node typed whole: watching it starts its cluster's own SQL source.
    await page.fill('[aria-label="profile name"]', 'lab');
    await page.fill('[aria-label="connect string"]', stack.simulator.connectstring);
    await page.fill('[aria-label="other SQL nodes"]', sql.url);
    await page.click('text=Save profile');
    await page.click('[data-testid="watch-profile-lab"]');
    await waitInPage(page, `document.querySelector('.cluster-name')?.textContent?.includes('lab')`);
    await waitInPage(page, `${state} === 'UP'`);
    await screenshot(page, 'e2e-settings-sql-source');
  });
});

// The desktop's keychain is Electron's safeStorage, which cannot run here: this engine keeps passwords with a real
// AES-GCM cipher in its place (what the desktop's engine is given), so the page shows the keychain's form.
test("Settings without an SQL source: one line says how to turn it on; with a keychain a profile's password is typed once, shown as stored and cleared, by keyboard, and set again or kept when the profile is edited", { skip, timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ndbtop-e2e-keychain-'));
  const secrets = new FileSecretStore(join(dir, 'sql-passwords.json'), aesCipher());
  try {
    await withStackPage(chromium, { simulator: { scenario: 'steady', dataNodes: 2, sql: false }, secrets }, { width: 1280, height: 900 }, async (page, stack) => {
      await openSettings(page);
      await waitInPage(page, `document.querySelector('[data-testid="sql-source"]')?.textContent?.includes('--sql mysql://USER@HOST[:PORT]')`);
      assert.equal(await page.$('[data-testid="sql-source-state"]'), null);

      await page.fill('[aria-label="profile name"]', 'vault');
      await page.fill('[aria-label="connect string"]', stack.simulator.connectstring);
      await page.fill('[aria-label="other SQL nodes"]', 'mysql://monitor@127.0.0.1:3306');
      assert.match((await page.textContent('[data-testid="profile-sql-password-note"]')) ?? '', /kept encrypted by the OS keychain/);
      // Tab reaches the password field; typing and Enter save the profile.
      await page.focus('[aria-label="other SQL nodes"]');
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate('document.activeElement?.getAttribute("aria-label")'), 'SQL password');
      await page.keyboard.type(PASSWORD);
      await page.keyboard.press('Enter');
      await waitInPage(page, `document.querySelector('[data-testid="profile-sql-password-vault"]')?.textContent?.includes('stored in the OS keychain')`);
      assert.equal(await page.inputValue('[data-testid="profile-sql-password"]'), '', 'the field is emptied once saved');
      assert.ok(secrets.has('sql-password:' + (await stack.engine.handlers.listProfiles({}))[0]?.id), 'the engine keeps it');
      assert.ok(!(await page.content()).includes(PASSWORD), 'the page never shows it again');

      await page.focus('[aria-label="Clear the SQL password of vault"]');
      await page.keyboard.press('Enter');
      await waitInPage(page, `document.querySelector('[data-testid="watch-profile-vault"]')?.parentElement?.textContent?.includes('SQL password from NDBTOP_SQL_PASSWORD')`);
      assert.equal((await stack.engine.handlers.listProfiles({}))[0]?.hasSqlPassword, false);

      // Edit: the form takes the saved profile back; a password typed there is kept for the same profile.
      await page.click('[aria-label="Edit profile vault"]');
      assert.equal(await page.inputValue('[aria-label="connect string"]'), stack.simulator.connectstring);
      assert.equal(await page.inputValue('[aria-label="other SQL nodes"]'), 'mysql://monitor@127.0.0.1:3306');
      await page.fill('[data-testid="profile-sql-password"]', PASSWORD);
      await page.click('[data-testid="profile-save"]');
      await waitInPage(page, `document.querySelector('[data-testid="profile-sql-password-vault"]')?.textContent?.includes('stored in the OS keychain')`);
      // Edited again and saved with the password field empty: the stored one stays.
      await page.click('[aria-label="Edit profile vault"]');
      assert.equal(await page.getAttribute('[data-testid="profile-sql-password"]', 'placeholder'), 'SQL password (empty: keep)');
      await page.fill('[aria-label="profile name"]', 'vault-2');
      await page.click('[data-testid="profile-save"]');
      await waitInPage(page, `document.querySelector('[data-testid="profile-sql-password-vault-2"]')?.textContent?.includes('stored in the OS keychain')`);
      const saved = await stack.engine.handlers.listProfiles({});
      assert.deepEqual(saved.map((p) => [p.name, p.connectstring, p.sql, p.hasSqlPassword]), [['vault-2', stack.simulator.connectstring, ['mysql://monitor@127.0.0.1:3306'], true]], 'edited, not saved twice');
      assert.ok(!(await page.content()).includes(PASSWORD), 'the page never shows it again');
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the header says when the SQL source is not up, with its error, without opening Settings', { skip, timeout: 60_000 }, async () => {
  await withStackPage(chromium, { simulator: { scenario: 'steady', dataNodes: 2 } }, { width: 1280, height: 900 }, async (page, stack) => {
    await page.waitForSelector('[data-testid="node-2"]');
    // Up: nothing to say in the header.
    await waitInPage(page, `!document.querySelector('[data-testid="sql-source-badge"]')`);
    await stack.simulator.sql?.close();
    await waitInPage(page, `/^SQL (LOST|CONNECTING)/.test(document.querySelector('[data-testid="sql-source-badge"]')?.textContent ?? '')`);
    const title = await page.getAttribute('[data-testid="sql-source-badge"]', 'title');
    assert.ok(title && title.length > 0, 'the badge says why in its title');
  });
});
