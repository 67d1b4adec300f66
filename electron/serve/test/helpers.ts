import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A built-renderer stand-in on disk: index.html, one hashed asset, and a secret beside (not inside) the root. */
export async function makeStaticRoot(): Promise<{ root: string; cleanup(): Promise<void> }> {
  const base = await mkdtemp(join(tmpdir(), 'ndbtop-serve-'));
  const root = join(base, 'renderer');
  await mkdir(join(root, 'assets'), { recursive: true });
  await writeFile(join(root, 'index.html'), '<!doctype html><title>ndbtop</title><script type="module" src="./assets/index-AbCd1234.js"></script>');
  await writeFile(join(root, 'assets', 'index-AbCd1234.js'), 'console.log("ndbtop");');
  await writeFile(join(base, 'secret.txt'), 'do not serve');
  return { root, cleanup: () => rm(base, { recursive: true, force: true }) };
}

export interface HttpReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Raw HTTP so paths like `/../x` reach the server unnormalised, as an attacker would send them. */
export function httpGet(port: number, path: string, headers: Record<string, string> = {}, host = '127.0.0.1'): Promise<HttpReply> {
  return new Promise((resolve, reject) => {
    const req = request({ host, port, path, method: 'GET', headers: { Connection: 'close', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Polls `check` until it returns a value; generous by default because the machine is shared and slow. */
export async function waitFor<T>(check: () => T | undefined | Promise<T | undefined>, what: string, timeoutMs = 20_000, intervalMs = 20): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
