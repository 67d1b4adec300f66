import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import { EngineRequestError } from '../engine-error.js';
import type { SecretCipher, SecretStore } from './secret-store.js';

const FileSchema = z.object({ version: z.literal(1), secrets: z.record(z.string(), z.string().base64()) });

/**
 * Secrets as ciphertext (base64) in a JSON file of their own beside settings.json, readable by the user only (mode
 * 0600) and written whole to a temporary file that is renamed over it, so a crash never leaves half a file. Only
 * ciphertext is held in memory; a secret is decrypted when asked for. An unreadable file is reported and
 * replaced on the next change (its secrets are lost: they must be typed again), never fatal.
 */
export class FileSecretStore implements SecretStore {
  readonly kind = 'os-keychain';
  readonly loadError: string | null;
  private readonly sealed: Map<string, string>;

  constructor(
    private readonly file: string,
    private readonly cipher: SecretCipher,
  ) {
    const loaded = load(file);
    this.sealed = new Map(Object.entries(loaded.secrets));
    this.loadError = loaded.error;
  }

  has(id: string): boolean {
    return this.sealed.has(id);
  }

  async get(id: string): Promise<string | undefined> {
    const sealed = this.sealed.get(id);
    if (sealed === undefined) return undefined;
    let opened: { plain: string; stale: boolean };
    try {
      opened = await this.cipher.decrypt(Buffer.from(sealed, 'base64'));
    } catch {
      // Another OS user's file, or a keychain that lost its key: the password must be typed again.
      throw new EngineRequestError('UNSUPPORTED', 'the OS keychain cannot decrypt the stored SQL password: clear it and type it again');
    }
    if (opened.stale) await this.set(id, opened.plain);
    return opened.plain;
  }

  async set(id: string, secret: string): Promise<void> {
    let sealed: Buffer;
    try {
      sealed = await this.cipher.encrypt(secret);
    } catch {
      throw new EngineRequestError('UNSUPPORTED', 'the OS keychain refused to encrypt the SQL password');
    }
    this.sealed.set(id, sealed.toString('base64'));
    this.save();
  }

  delete(id: string): void {
    if (this.sealed.delete(id)) this.save();
  }

  private save(): void {
    const tmp = `${this.file}.tmp`;
    // A temporary file left by a crash may have other permissions: made anew, so `mode` applies.
    rmSync(tmp, { force: true });
    writeFileSync(tmp, JSON.stringify({ version: 1, secrets: Object.fromEntries(this.sealed) }, null, 2), { mode: 0o600, flag: 'wx' });
    renameSync(tmp, this.file);
  }
}

function load(file: string): { secrets: Record<string, string>; error: string | null } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { secrets: {}, error: null };
    return { secrets: {}, error: `cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? 'unreadable'}` };
  }
  const parsed = FileSchema.safeParse(safeJson(text));
  return parsed.success ? { secrets: parsed.data.secrets, error: null } : { secrets: {}, error: `ignoring ${file}: not a secrets file of this ndbtop` };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
