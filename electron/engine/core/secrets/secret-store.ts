import type { SecretStoreKind } from '../../../contract/schemas/settings.js';
import { EngineRequestError } from '../engine-error.js';

/**
 * Where secrets the user types once (a profile's SQL password) are kept between runs. The desktop's is encrypted by
 * the OS keychain (`file-secret-store.ts` over the cipher `desktop/os-keychain.ts` makes of Electron's safeStorage);
 * serve mode, the CLI and replays have none, and take the SQL password from NDBTOP_SQL_PASSWORD or
 * --sql-password-file only.
 */
export interface SecretStore {
  readonly kind: SecretStoreKind;
  has(id: string): boolean;
  /** Decrypted when asked (at connect time), never kept in clear. */
  get(id: string): Promise<string | undefined>;
  set(id: string, secret: string): Promise<void>;
  delete(id: string): void;
}

/** Encrypts a secret to bytes only the same OS user can decrypt (the OS keychain's key; a test key in tests). */
export interface SecretCipher {
  encrypt(plain: string): Promise<Buffer>;
  /** `stale`: the keychain rotated its key, so the bytes should be encrypted again. */
  decrypt(data: Buffer): Promise<{ plain: string; stale: boolean }>;
}

export const NO_KEYCHAIN_MESSAGE = 'no OS keychain here to keep an SQL password in: it comes from NDBTOP_SQL_PASSWORD or --sql-password-file';

/** Serve mode, the CLI, a replay, or a desktop whose OS offers no keychain. */
export const NO_SECRET_STORE: SecretStore = {
  kind: 'none',
  has: () => false,
  get: async () => undefined,
  set: async () => {
    throw new EngineRequestError('UNSUPPORTED', NO_KEYCHAIN_MESSAGE);
  },
  delete: () => undefined,
};
