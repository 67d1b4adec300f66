import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeCerts, type MakeCertsOptions } from '../tls/make-certs.js';

/** Certificates made by `sim --make-certs`'s own code in a fresh directory, removed when the test ends. */
export async function certDir(t: { after(fn: () => unknown): void }, options: MakeCertsOptions = {}): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ndbtop-tls-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await makeCerts(dir, options);
  return dir;
}

/** An empty directory: a search path where no certificate is found. */
export async function emptyDir(t: { after(fn: () => unknown): void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ndbtop-notls-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}
