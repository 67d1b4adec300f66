import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fmt } from './stats.js';

const ROWS = Number(process.env.BENCH_SQL_FLOOD_ROWS ?? 1_000_000);
const SERVE_SECONDS = Number(process.env.BENCH_SQL_FLOOD_SERVE_SECONDS ?? 20);
const CLI = join(process.cwd(), 'dist', 'ndbtop.mjs');
/** The peak resident memory and the CPU time of the process, reported as it exits. */
const RSS_AT_EXIT = `data:text/javascript,process.on('exit',()=>{const u=process.resourceUsage();process.stderr.write('\\nmax-rss-kb '+u.maxRSS+' cpu-us '+(u.userCPUTime+u.systemCPUTime))})`;

function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve(out.slice(0, nl).trim());
    });
    child.once('exit', (code) => reject(new Error(`the flood server exited (${code})`)));
  });
}

async function oneShot(url: string, extra: string[]): Promise<void> {
  const t0 = performance.now();
  const child = spawn(process.execPath, ['--import', RSS_AT_EXIT, CLI, 'ndbinfo', '--sql', url, '--timeout', '120000', ...extra], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const ms = performance.now() - t0;
  const rss = Number(/max-rss-kb (\d+)/.exec(stderr)?.[1] ?? NaN) / 1024;
  const cpuMs = Number(/cpu-us (\d+)/.exec(stderr)?.[1] ?? NaN) / 1000;
  const said = stderr.split('\n').find((l) => l.startsWith('ndbtop')) ?? stderr.trim().split('\n')[0];
  console.log(`ndbtop ndbinfo ${extra.join(' ')}: exit ${code} after ${fmt(ms)} ms (${fmt(cpuMs)} ms CPU), peak ${fmt(rss)} MB; ${said}`);
}

/** serve --sql against the flood for a while: its resident memory, sampled each second. */
async function serve(url: string): Promise<void> {
  const child = spawn(process.execPath, [CLI, 'serve', '--sql', url, '--port', '0'], { stdio: ['ignore', 'ignore', 'ignore'] });
  let peak = 0;
  for (let s = 0; s < SERVE_SECONDS; s += 1) {
    await new Promise((r) => setTimeout(r, 1000));
    const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0);
    peak = Math.max(peak, kb / 1024);
  }
  child.kill('SIGTERM');
  await new Promise((resolve) => child.on('close', resolve));
  console.log(`serve --sql for ${SERVE_SECONDS} s: peak resident ${fmt(peak)} MB`);
}

/**
 * `npm run bench sql-flood` (after `npm run build`): an SQL node that answers ROWS rows of cpustat to every query,
 * and what that costs `ndbtop ndbinfo` (text and --json: time to the error, peak memory) and `serve --sql`.
 */
export async function benchSqlFlood(): Promise<void> {
  console.log(`== SQL flood (${ROWS} rows of cpustat per answer)`);
  const server = spawn(process.execPath, ['--import', 'tsx', join(process.cwd(), 'bench', 'sql-flood-child.ts'), String(ROWS)], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const url = await firstLine(server);
    await oneShot(url, []);
    await oneShot(url, ['--json']);
    await serve(url);
  } finally {
    server.kill('SIGTERM');
  }
}
