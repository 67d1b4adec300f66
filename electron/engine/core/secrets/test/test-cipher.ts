import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { SecretCipher } from '../secret-store.js';
import type { SafeStorageApi } from '../../../../desktop/os-keychain.js';

/**
 * A real cipher in place of the OS keychain, which needs Electron (no binary here): AES-256-GCM under a key held
 * by the test, as the keychain holds the OS user's. Ciphertext is nonce ‖ tag ‖ data; tampered bytes fail.
 */
export function aesCipher(key: Buffer = randomBytes(32)): SecretCipher & { readonly key: Buffer } {
  return {
    key,
    encrypt: async (plain) => {
      const iv = randomBytes(12);
      const c = createCipheriv('aes-256-gcm', key, iv);
      const data = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
      return Buffer.concat([iv, c.getAuthTag(), data]);
    },
    decrypt: async (bytes) => {
      const d = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12));
      d.setAuthTag(bytes.subarray(12, 28));
      return { plain: Buffer.concat([d.update(bytes.subarray(28)), d.final()]).toString('utf8'), stale: false };
    },
  };
}

/** Electron's safeStorage as the desktop sees it, over `aesCipher`: what the OS says is the test's to choose. */
export function standInSafeStorage(opts: { available?: boolean; backend?: string; rotate?: boolean } = {}): SafeStorageApi & { encrypted: number } {
  const cipher = aesCipher();
  const api = {
    encrypted: 0,
    isAsyncEncryptionAvailable: async () => opts.available ?? true,
    encryptStringAsync: async (plain: string) => {
      api.encrypted += 1;
      return cipher.encrypt(plain);
    },
    decryptStringAsync: async (data: Buffer) => ({ result: (await cipher.decrypt(data)).plain, shouldReEncrypt: opts.rotate ?? false }),
    ...(opts.backend === undefined ? {} : { getSelectedStorageBackend: () => opts.backend ?? 'unknown' }),
  };
  return api;
}
