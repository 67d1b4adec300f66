import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../../../native-mgm/test/free-port.js';
import { sourcePath } from '../../../../scripts/test-source.js';

/** The shipped deployment files (deploy/ at the top of the repository). */
export const DEPLOY = sourcePath(new URL('../../../../deploy/', import.meta.url));

/** Runs Debian's promtool (installed by .ci/run with Prometheus); a missing binary fails with how to get it. */
export function promtool(args: string[], cwd?: string): { code: number | null; output: string } {
  const r = spawnSync('promtool', args, { cwd, encoding: 'utf8' });
  if (r.error) throw new Error(`promtool not runnable (${r.error.message}): apt-get install prometheus`);
  return { code: r.status, output: `${r.stdout}${r.stderr}` };
}

export interface PrometheusProcess {
  readonly url: string;
  /** An instant query; throws on anything but success (a parse error included). */
  query(expr: string): Promise<Array<{ metric: Record<string, string>; value: [number, string] }>>;
  alerts(): Promise<Array<{ labels: Record<string, string>; state: string }>>;
  /** The alerting rules Prometheus loaded, by name, with their health. */
  rules(): Promise<Array<{ name: string; health: string; query: string }>>;
  stop(): Promise<void>;
}

interface ApiReply<T> {
  status: string;
  data: T;
  error?: string;
}

async function api<T>(url: string): Promise<T> {
  const res = await fetch(url);
  const body = (await res.json()) as ApiReply<T>;
  if (body.status !== 'success') throw new Error(`${url}: ${body.error ?? res.status}`);
  return body.data;
}

/**
 * Debian's `prometheus` with the given configuration and rule files in a temporary directory (its storage too),
 * listening on a free loopback port; resolves once it says it is ready.
 */
export async function startPrometheus(files: Record<string, string>): Promise<PrometheusProcess> {
  const dir = await mkdtemp(join(tmpdir(), 'ndbtop-prometheus-'));
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text, { mode: 0o600 });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let log = '';
  const child: ChildProcess = spawn(
    'prometheus',
    [`--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'],
    { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  child.stderr?.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-4000)));
  const exited = once(child, 'exit');
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const spawnError = once(child, 'error').then(([err]) => {
      throw new Error(`prometheus not runnable (${(err as Error).message}): apt-get install prometheus`);
    });
    const deadline = Date.now() + 60_000;
    const ready = (async () => {
      for (;;) {
        if (child.exitCode !== null) throw new Error(`prometheus exited ${child.exitCode}: ${log}`);
        const ok = await fetch(`${url}/-/ready`).then((r) => r.ok, () => false);
        if (ok) return;
        if (Date.now() > deadline) throw new Error(`prometheus not ready after 60 s: ${log}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    })();
    await Promise.race([ready, spawnError]);
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    url,
    query: async (expr) => (await api<{ result: Array<{ metric: Record<string, string>; value: [number, string] }> }>(`${url}/api/v1/query?query=${encodeURIComponent(expr)}`)).result,
    alerts: async () => (await api<{ alerts: Array<{ labels: Record<string, string>; state: string }> }>(`${url}/api/v1/alerts`)).alerts,
    rules: async () => (await api<{ groups: Array<{ rules: Array<{ name: string; health: string; query: string }> }> }>(`${url}/api/v1/rules?type=alert`)).groups.flatMap((g) => g.rules),
    stop,
  };
}
