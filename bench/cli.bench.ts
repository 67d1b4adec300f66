import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { simAddresses, spawnCli } from '../electron/cli/test/run-cli.js';
import { buildCli } from '../scripts/cli-bundle.js';
import { fmt, percentile } from './stats.js';
import { noted, type Figure } from './table.js';

const ROUNDS = Number(process.env.BENCH_CLI_ROUNDS ?? (process.env.BENCH_QUICK === '1' ? 5 : 15));
/** Each process reports its own CPU time (every thread's) as it exits, whatever the command did. */
const CPU_AT_EXIT = `data:text/javascript,process.on('exit',()=>process.stderr.write('\\ncpu-ms '+JSON.stringify(process.cpuUsage())))`;

interface Timing {
  cpuMs: number;
  wallMs: number;
}

async function run(entry: string, args: string[]): Promise<Timing> {
  const t0 = performance.now();
  const stderr = await new Promise<string>((resolve, reject) =>
    execFile(process.execPath, ['--import', CPU_AT_EXIT, entry, ...args], { encoding: 'utf8' }, (err, _out, errText) => (err ? reject(err) : resolve(errText))),
  );
  const wallMs = performance.now() - t0;
  const usage = JSON.parse(/cpu-ms (\{.*\})/.exec(stderr)?.[1] ?? 'null') as { user: number; system: number } | null;
  if (!usage) throw new Error(`no CPU time reported: ${stderr}`);
  return { cpuMs: (usage.user + usage.system) / 1000, wallMs };
}

/**
 * `npm run bench cli`: what one `ndbtop` command costs to start, the CLI as built (an entry that imports a command's
 * engine, servers or simulator when it runs) beside the same sources as one file, alternating, against one simulator.
 */
export async function benchCli(): Promise<Figure[]> {
  console.log(`== CLI start (${ROUNDS} runs of each, alternating)`);
  const dir = await mkdtemp(join(tmpdir(), 'ndbtop-bench-cli-'));
  const rows: Figure[] = [];
  // simAddresses waits for the SQL node's URL as well.
  const sim = spawnCli(['sim', '--port', '0', '--sql-port', '0']);
  try {
    await Promise.all([buildCli(join(dir, 'split')), buildCli(join(dir, 'one-file'), { splitting: false })]);
    const { connectstring } = await simAddresses(sim);
    const commands: Array<[string, string[]]> = [
      ['--help', ['--help']],
      ['show', ['show', '-c', connectstring]],
    ];
    for (const [name, args] of commands) {
      const figures: Record<'split' | 'one-file', Timing[]> = { split: [], 'one-file': [] };
      for (let i = 0; i < ROUNDS; i++) {
        for (const variant of ['split', 'one-file'] as const) figures[variant].push(await run(join(dir, variant, 'ndbtop.mjs'), args));
      }
      const median = (variant: keyof typeof figures, key: keyof Timing): number => percentile(figures[variant].map((f) => f[key]), 50);
      console.log(
        `ndbtop ${name}: CPU ${fmt(median('split', 'cpuMs'), 0)} ms as built, ${fmt(median('one-file', 'cpuMs'), 0)} ms as one file (${fmt(median('split', 'cpuMs') / median('one-file', 'cpuMs'))}×); ` +
          `wall ${fmt(median('split', 'wallMs'), 0)} ms against ${fmt(median('one-file', 'wallMs'), 0)} ms (${fmt(median('split', 'wallMs') / median('one-file', 'wallMs'))}×)`,
      );
      rows.push(noted(`ndbtop ${name}: CPU as built / as one file`, `${fmt(median('split', 'cpuMs') / median('one-file', 'cpuMs'))}x`));
    }
    return rows;
  } finally {
    sim.kill('SIGTERM');
    await rm(dir, { recursive: true, force: true });
  }
}
