import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { spawnCli } from '../../../cli/test/run-cli.js';

/**
 * `ndbtop sim` as a separate process, so it can be frozen with SIGSTOP or killed with SIGKILL the way an
 * operator's ndb_mgmd can: the kernel keeps accepting into the listen backlog of a stopped process, and a killed
 * one's sockets are closed by the kernel, not by any code of ours.
 */
export class SimProcess {
  private child: ChildProcess | null = null;

  constructor(
    readonly port: number,
    private readonly args: string[] = ['--data-nodes', '4', '--scenario', 'steady'],
  ) {}

  /** The process id while it runs (a soak reads its CPU time). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  get connectstring(): string {
    return `127.0.0.1:${this.port}`;
  }

  async start(timeoutMs = 60_000): Promise<void> {
    const child = spawnCli(['sim', '--port', String(this.port), ...this.args]);
    this.child = child;
    let out = '';
    let err = '';
    child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`sim did not start in ${timeoutMs} ms: ${err}`)), timeoutMs);
      child.stdout?.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('connectstring:')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`sim exited with ${code} before it listened: ${err}`));
      });
    });
  }

  freeze(): void {
    this.child?.kill('SIGSTOP');
  }

  thaw(): void {
    this.child?.kill('SIGCONT');
  }

  /** Like `kill -9`: no goodbye on any socket. */
  async kill(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGCONT');
    child.kill('SIGKILL');
    await exited;
  }
}
