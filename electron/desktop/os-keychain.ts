import type { SecretCipher } from '../engine/core/secrets/secret-store.js';

/** The part of Electron's `safeStorage` used here (its asynchronous API: the synchronous one goes in Electron 46). */
export interface SafeStorageApi {
  isAsyncEncryptionAvailable(): Promise<boolean>;
  encryptStringAsync(plain: string): Promise<Buffer>;
  decryptStringAsync(data: Buffer): Promise<{ result: string; shouldReEncrypt: boolean }>;
  /** Linux only: which secret service holds the key. */
  getSelectedStorageBackend?(): string;
}

/**
 * The OS keychain as a cipher for the secret store (DPAPI on Windows, the Keychain on macOS, libsecret or KWallet on
 * Linux), or null where there is none. On Linux without a secret service safeStorage falls back to `basic_text`, a
 * key written into Chromium itself: that protects nothing, so it counts as no keychain and the desktop refuses to
 * store a password, as serve mode does.
 *
 * This module runs only inside Electron, whose binary cannot be installed here: its tests use a real cipher
 * (AES-GCM) in place of safeStorage; what safeStorage itself does is Electron's.
 */
export async function osKeychainCipher(safeStorage: SafeStorageApi, platform: NodeJS.Platform): Promise<SecretCipher | null> {
  if (platform === 'linux' && safeStorage.getSelectedStorageBackend?.() === 'basic_text') return null;
  if (!(await safeStorage.isAsyncEncryptionAvailable())) return null;
  return {
    encrypt: (plain) => safeStorage.encryptStringAsync(plain),
    decrypt: async (data) => {
      const { result, shouldReEncrypt } = await safeStorage.decryptStringAsync(data);
      return { plain: result, stale: shouldReEncrypt };
    },
  };
}
