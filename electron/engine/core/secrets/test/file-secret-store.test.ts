import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { osKeychainCipher } from '../../../../desktop/os-keychain.js';
import { FileSecretStore } from '../file-secret-store.js';
import { NO_SECRET_STORE } from '../secret-store.js';
import { aesCipher, standInSafeStorage } from './test-cipher.js';

const SECRET = 'Keychain-pw-8731!';
const fileIn = (): string => join(mkdtempSync(join(tmpdir(), 'ndbtop-secrets-')), 'sql-passwords.json');

describe('FileSecretStore', () => {
  it('keeps only ciphertext on disk, mode 0600, and gives the secret back to a new store with the same key', async () => {
    const file = fileIn();
    const cipher = aesCipher();
    const store = new FileSecretStore(file, cipher);
    await store.set('sql-password:p1', SECRET);
    const text = readFileSync(file, 'utf8');
    assert.ok(!text.includes(SECRET), 'no clear text');
    assert.ok(!text.includes(Buffer.from(SECRET).toString('base64')), 'not merely base64 of it');
    if (process.platform !== 'win32') assert.equal(statSync(file).mode & 0o777, 0o600);
    const sealed = JSON.parse(text).secrets['sql-password:p1'] as string;
    assert.equal((await cipher.decrypt(Buffer.from(sealed, 'base64'))).plain, SECRET, 'the file holds what the cipher made');

    const again = new FileSecretStore(file, aesCipher(cipher.key));
    assert.equal(again.loadError, null);
    assert.ok(again.has('sql-password:p1'));
    assert.equal(await again.get('sql-password:p1'), SECRET);
    assert.equal(await again.get('sql-password:other'), undefined);
    again.delete('sql-password:p1');
    assert.equal(new FileSecretStore(file, cipher).has('sql-password:p1'), false, 'deleted from the file');
  });

  it('another key (another OS user, a keychain that lost it) cannot decrypt: a clear error without the secret', async () => {
    const file = fileIn();
    await new FileSecretStore(file, aesCipher()).set('a', SECRET);
    const other = new FileSecretStore(file, aesCipher());
    await assert.rejects(other.get('a'), (err: Error) => /cannot decrypt the stored SQL password/.test(err.message) && !err.message.includes(SECRET));
  });

  it('a damaged file is reported by name and replaced on the next change, never fatal', async () => {
    const file = fileIn();
    writeFileSync(file, '{"version":1,"secrets":{"a":"not base64!"}}');
    const store = new FileSecretStore(file, aesCipher());
    assert.match(store.loadError ?? '', /ignoring .*sql-passwords\.json: not a secrets file/);
    assert.equal(store.has('a'), false);
    await store.set('b', SECRET);
    assert.deepEqual(Object.keys(JSON.parse(readFileSync(file, 'utf8')).secrets), ['b']);
  });

  it('without a keychain, saving is refused with where the password comes from instead', async () => {
    assert.equal(NO_SECRET_STORE.kind, 'none');
    await assert.rejects(NO_SECRET_STORE.set('a', SECRET), /NDBTOP_SQL_PASSWORD or --sql-password-file/);
  });
});

// Electron's safeStorage cannot run here (no Electron binary): these drive osKeychainCipher over a stand-in whose
// encryption is real AES-GCM, so what is checked is the desktop's use of the API, not the OS keychain itself.
describe('osKeychainCipher (safeStorage stand-in)', () => {
  it("Linux's basic_text fallback (a key built into Chromium) and an unavailable keychain count as none", async () => {
    assert.equal(await osKeychainCipher(standInSafeStorage({ backend: 'basic_text' }), 'linux'), null);
    assert.equal(await osKeychainCipher(standInSafeStorage({ available: false }), 'win32'), null);
    assert.notEqual(await osKeychainCipher(standInSafeStorage({ backend: 'gnome_libsecret' }), 'linux'), null);
    assert.notEqual(await osKeychainCipher(standInSafeStorage(), 'win32'), null, 'DPAPI');
  });

  it('a rotated keychain key: the secret is encrypted again and written back', async () => {
    const api = standInSafeStorage({ rotate: true });
    const cipher = await osKeychainCipher(api, 'darwin');
    assert.ok(cipher);
    const file = fileIn();
    const store = new FileSecretStore(file, cipher);
    await store.set('a', SECRET);
    const before = readFileSync(file, 'utf8');
    assert.equal(await store.get('a'), SECRET);
    assert.equal(api.encrypted, 2, 'encrypted again after a decrypt that said so');
    assert.notEqual(readFileSync(file, 'utf8'), before);
  });
});
