import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { SimProcess } from '../electron/engine/test/faults/sim-process.js';
import { freePort } from '../native-mgm/test/free-port.js';
import { processCpuMs } from './soak/cpu.js';
import { fmt } from './stats.js';
import type { StormFigures } from './storm-child.js';
import { atMost, noted, type Figure } from './table.js';

const DATA_NODES = 144;
/** The soak's speed: a split every ~15 s of wall time, each node's report of each node across it ~2,000 events/s. */
const SPEED = 16;

/** The engine in a process of its own, through tsx (its loader's cost is paid before the measured span). */
function runChild(connectstring: string, seconds: number): Promise<StormFigures> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./storm-child.ts', import.meta.url)), connectstring, String(seconds), String(DATA_NODES)], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve, reject) => child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as StormFigures) : reject(new Error(`storm child exited with ${String(code)}: ${out}`)))));
}

async function watched(scenario: string, seconds: number): Promise<{ f: StormFigures; simCpuPercent: number }> {
  const sim = new SimProcess(await freePort(), ['--data-nodes', String(DATA_NODES), '--replicas', '2', '--mgm-nodes', '2', '--api-nodes', '109', '--scenario', scenario, '--speed', String(SPEED), '--seed', '1']);
  await sim.start();
  try {
    const f = await runChild(sim.connectstring, seconds);
    // The simulator's whole run, start-up included: how busy the cluster side was beside the engine.
    const simCpuPercent = ((processCpuMs(sim.pid) ?? 0) / 1000 / (seconds + 20)) * 100;
    return { f, simCpuPercent };
  } finally {
    await sim.kill();
  }
}

const line = (name: string, f: StormFigures, simCpuPercent: number): string =>
  `  ${name.padEnd(12)} lag p50 ${fmt(f.lagP50Ms, 0)} ms  p99 ${fmt(f.lagP99Ms, 0)} ms  max ${fmt(f.lagMaxMs, 0)} ms  CPU ${fmt((f.cpuMs / f.wallMs) * 100, 1)} %  loop busy ${fmt((f.loopBusyMs / f.wallMs) * 100, 1)} %  ` +
  `${fmt((f.events / f.wallMs) * 1000, 0)} events/s  incidents ${JSON.stringify(f.incidents)}  (simulator ~${fmt(simCpuPercent, 0)} %)`;

/**
 * The engine during failure storms at 144 data nodes (issue 39): a network split has every node report every node
 * across it, ~2,000 events a second at speed 16. Two engines side by side in one run, each in its own process
 * against its own simulator: one through the arbitration scenario's splits, one on the steady scenario. The storm's
 * lag is the goal (quiet machine); its CPU against the steady engine's is the ratio, which load moves less.
 */
export async function benchStorm(): Promise<Figure[]> {
  console.log('== storm');
  const seconds = Number(process.env.BENCH_SECONDS ?? (process.env.BENCH_QUICK === '1' ? 30 : 60));
  const [storm, steady] = await Promise.all([watched('arbitration', seconds), watched('steady', seconds)]);
  const cpu = (r: { f: StormFigures }): number => r.f.cpuMs / r.f.wallMs;
  console.log(`engine watching 255 nodes (144 data) at speed ${SPEED}, ${seconds} s side by side, each in its own process against its own simulator`);
  console.log(line('arbitration', storm.f, storm.simCpuPercent));
  console.log(line('steady', steady.f, steady.simCpuPercent));
  const cpuRatio = cpu(storm) / Math.max(1e-9, cpu(steady));
  // The lag of one against the other's, not CPU alone: an engine held by one long task takes fewer events, so its
  // CPU share says less than its lag (before the fix: 3.3× the CPU, 700× the lag, 461 events/s taken of ~4,000).
  const lagRatio = storm.f.lagP99Ms / Math.max(1, steady.f.lagP99Ms);
  console.log(`  ratio storm/steady engine lag p99 ${fmt(lagRatio)}x, CPU ${fmt(cpuRatio)}x`);
  return [
    atMost('engine event-loop lag p99, 144-node arbitration storm (speed 16)', storm.f.lagP99Ms, 250, ' ms', true, 0),
    atMost('engine lag p99 in a 144-node arbitration storm / steady, side by side', lagRatio, 10, 'x', false),
    noted('engine CPU in a 144-node arbitration storm / steady', `${fmt(cpuRatio)}x`),
    noted('engine event-loop lag max, 144-node arbitration storm', `${fmt(storm.f.lagMaxMs, 0)} ms`),
  ];
}
