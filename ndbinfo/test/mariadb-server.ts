import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../native-mgm/test/free-port.js';

const MARIADBD = '/usr/sbin/mariadbd';
const INSTALL_DB = 'mariadb-install-db';
const CLIENT = 'mariadb';
const START_TIMEOUT_MS = 30_000;

function portAccepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect({ host: '127.0.0.1', port }, () => {
      s.destroy();
      resolve(true);
    });
    s.on('error', () => resolve(false));
  });
}

/**
 * A real MariaDB server (Debian's mariadb-server) for the SQL source's tests: a throwaway data directory, socket
 * and port of its own, listening on 127.0.0.1 only, nothing written outside its temp directory. One per test file
 * (creating the data directory takes seconds); `stop()`/`start()` take it down and bring it back on the same port.
 */
export class MariaDbServer {
  private child: ChildProcess | null = null;
  private exited: Promise<void> = Promise.resolve();

  private constructor(
    readonly dir: string,
    readonly port: number,
    /** More mariadbd options (TLS files, say). */
    private readonly extraArgs: readonly string[],
  ) {}

  get socket(): string {
    return join(this.dir, 'mariadb.sock');
  }

  static async create(extraArgs: readonly string[] = []): Promise<MariaDbServer> {
    if (!existsSync(MARIADBD)) throw new Error(`mariadb-server is not installed (${MARIADBD} is missing): apt-get install mariadb-server mariadb-client`);
    const dir = await mkdtemp(join(tmpdir(), 'ndbtop-mariadb-'));
    const install = spawnSync(INSTALL_DB, ['--no-defaults', '--user=root', `--datadir=${join(dir, 'data')}`, '--auth-root-authentication-method=normal', '--skip-test-db'], { encoding: 'utf8' });
    if (install.error || install.status !== 0) {
      await rm(dir, { recursive: true, force: true });
      throw new Error(`${INSTALL_DB} failed (${install.error?.message ?? `exit ${install.status}`}): ${install.stderr}`);
    }
    const server = new MariaDbServer(dir, await freePort(), extraArgs);
    await server.start();
    return server;
  }

  async start(): Promise<void> {
    if (this.child) return;
    const args = [
      '--no-defaults', '--user=root', `--datadir=${join(this.dir, 'data')}`, `--socket=${this.socket}`, `--port=${this.port}`,
      '--bind-address=127.0.0.1', '--skip-networking=0', '--skip-name-resolve', `--pid-file=${join(this.dir, 'mariadb.pid')}`,
      `--log-error=${join(this.dir, 'error.log')}`, `--tmpdir=${this.dir}`, '--skip-log-bin', '--innodb-buffer-pool-size=8M',
      ...this.extraArgs,
    ];
    const child = spawn(MARIADBD, args, { stdio: 'ignore' });
    this.child = child;
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (!(await portAccepts(this.port))) {
      if (child.exitCode !== null) throw new Error(`mariadbd exited with ${child.exitCode}; see ${join(this.dir, 'error.log')}`);
      if (Date.now() > deadline) throw new Error(`mariadbd did not listen on ${this.port} within ${START_TIMEOUT_MS} ms`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** A clean shutdown (SIGTERM), as an operator's restart; the port is free again when it returns. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = null;
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await this.exited;
    clearTimeout(killer);
  }

  /** Runs SQL as root through Debian's own client (an implementation independent of mysql2). */
  sql(statements: string): string {
    const out = spawnSync(CLIENT, ['--no-defaults', `--socket=${this.socket}`, '-uroot', '--default-character-set=utf8mb4', '--batch', '--skip-column-names'], { input: statements, encoding: 'utf8' });
    if (out.error || out.status !== 0) throw new Error(`${CLIENT} failed: ${out.error?.message ?? out.stderr}`);
    return out.stdout;
  }

  async dispose(): Promise<void> {
    await this.stop();
    await rm(this.dir, { recursive: true, force: true });
  }
}
