import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { CLIENT_VERSION } from '../native-mgm/client/bootstrap.js';
import { MgmClient } from '../native-mgm/client/mgm-client.js';
import { EventRecordParser } from '../native-mgm/events/parse-event.js';
import { StreamReader } from '../native-mgm/protocol/stream-reader.js';
import { startSimulator } from '../native-mgm/sim/index.js';
import { fmt, percentile } from './stats.js';
import { atMost, noted, type Figure } from './table.js';
import { benchTls } from './tls.bench.js';

const QUICK = process.env.BENCH_QUICK === '1';
const ROUNDS = QUICK ? 150 : 400;
const CPU_BLOCK = 50;

const LF = 10;

/**
 * The floor: the same request bytes and the same reply bytes, read until the reply's one empty line ends it, with
 * no other work: only each chunk's last bytes are looked at (a reply never carries "\n\n" before its end).
 */
async function rawRoundTrip(socket: Socket): Promise<void> {
  socket.write('get status\n\n');
  let previous = 0;
  for (;;) {
    const [chunk] = (await once(socket, 'data')) as [Buffer];
    const last = chunk[chunk.length - 1];
    const before = chunk.length > 1 ? chunk[chunk.length - 2] : previous;
    if (last === LF && before === LF) return;
    previous = last ?? previous;
  }
}

/** One whole reply to `request`, for setting up the raw session (not timed). */
async function rawReply(socket: Socket, request: string): Promise<string> {
  socket.write(request);
  const chunks: Buffer[] = [];
  for (;;) {
    const [chunk] = (await once(socket, 'data')) as [Buffer];
    chunks.push(chunk);
    const text = Buffer.concat(chunks).toString('latin1');
    if (text.endsWith('\n\n')) return text;
  }
}

/** CPU time (this process, all threads) of `fn`, in ms: on a shared machine it moves less than wall time does. */
async function cpuMs(fn: () => Promise<unknown> | unknown): Promise<number> {
  const start = process.cpuUsage();
  await fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

async function statusRoundTrip(): Promise<Figure[]> {
  const sim = await startSimulator({ dataNodes: 144, replicas: 2, mgmNodes: 2, apiNodes: 109, connectedApiNodes: 80, scenario: 'idle' });
  try {
    const client = new MgmClient({ connectstring: sim.connectstring });
    await client.connect();
    const mgmd = sim.mgmds[0];
    if (!mgmd) throw new Error('no mgmd');
    const raw = connect(mgmd.port, mgmd.host);
    raw.setNoDelay(true);
    await once(raw, 'connect');
    // The client's bootstrap announces its version, which makes the server add `is_single_user` to every node
    // (spec §4.2): the raw session announces the same, so both read the same reply bytes.
    const { major, minor, build } = CLIENT_VERSION;
    await rawReply(raw, `set clientversion\nmajor: ${major}\nminor: ${minor}\nbuild: ${build}\n\n`);
    // A status reply must finish with the only empty line in it; check that once before trusting the floor.
    const nodes = await client.getStatus();
    if (nodes.length !== 255) throw new Error(`expected 255 nodes, got ${nodes.length}`);
    const rawStatus = await rawReply(raw, 'get status\n\n');
    const singleUserLines = rawStatus.split('.is_single_user: ').length - 1;
    if (singleUserLines !== 255 || nodes.some((n) => n.isSingleUser === null)) throw new Error('the raw session and the client read different replies');
    const ours: number[] = [];
    const floor: number[] = [];
    for (let i = 0; i < 30; i++) {
      await client.getStatus();
      await rawRoundTrip(raw);
    }
    // Interleaved, so both see the same machine noise.
    for (let i = 0; i < ROUNDS; i++) {
      let t = performance.now();
      await client.getStatus();
      ours.push(performance.now() - t);
      t = performance.now();
      await rawRoundTrip(raw);
      floor.push(performance.now() - t);
    }
    // CPU time per round trip, in alternating blocks (the simulator's own work, in this process, counts for both).
    const oursCpu: number[] = [];
    const floorCpu: number[] = [];
    const block = async (roundTrip: () => Promise<unknown>): Promise<number> => {
      const ms = await cpuMs(async () => {
        for (let i = 0; i < CPU_BLOCK; i++) await roundTrip();
      });
      return ms / CPU_BLOCK;
    };
    for (let b = 0; b < 8; b++) {
      oursCpu.push(await block(() => client.getStatus()));
      floorCpu.push(await block(() => rawRoundTrip(raw)));
    }
    raw.destroy();
    client.close();
    const p50 = percentile(ours, 50) / percentile(floor, 50);
    const p95 = percentile(ours, 95) / percentile(floor, 95);
    console.log(`get status, 255 nodes (${(rawStatus.length / 1024).toFixed(0)} KB), ${ROUNDS} interleaved round trips`);
    console.log(`  raw socket  p50 ${fmt(percentile(floor, 50))} ms  p95 ${fmt(percentile(floor, 95))} ms`);
    console.log(`  MgmClient   p50 ${fmt(percentile(ours, 50))} ms  p95 ${fmt(percentile(ours, 95))} ms  (parsed into typed NodeState[])`);
    console.log(`  ratio       p50 ${fmt(p50)}x  p95 ${fmt(p95)}x   (goal <= 1.5x)`);
    const cpuOurs = percentile(oursCpu, 50);
    const cpuFloor = percentile(floorCpu, 50);
    console.log(`  CPU time per round trip (median of 8 blocks of ${CPU_BLOCK}): raw ${fmt(cpuFloor * 1000, 0)} us, MgmClient ${fmt(cpuOurs * 1000, 0)} us, ratio ${fmt(cpuOurs / cpuFloor)}x`);
    return [atMost('get status 255 nodes, p50 / raw socket (interleaved)', p50, 1.5, 'x', false), noted('get status 255 nodes, CPU per round trip / raw socket', `${fmt(cpuOurs / cpuFloor)}x`)];
  } finally {
    await sim.close();
  }
}

function eventRecords(count: number): Buffer {
  const trans = (n: number) =>
    `log event reply\ntype=35\ntime=0\nsource_nodeid=${2 + (n % 144)}\ntrans_count=${1500 + n}\ncommit_count=1498\nread_count=10233\nsimple_read_count=8800\nwrite_count=4410\nattrinfo_count=31250\nconc_op_count=12\nabort_count=22\nscan_count=40\nrange_scan_count=15\n\n`;
  const ops = (n: number) => `log event reply\ntype=36\ntime=0\nsource_nodeid=${2 + (n % 144)}\nops=${20550 + n}\n\n`;
  const parts = ['listen event\nresult: 0\n\n'];
  for (let i = 0; i < count; i++) parts.push(i % 2 === 0 ? trans(i) : ops(i), i % 50 === 0 ? '<PING>\n' : '');
  return Buffer.from(parts.join(''));
}

function eventThroughput(): Figure[] {
  const COUNT = 200_000;
  const bytes = eventRecords(COUNT);
  const CHUNK = 16 * 1024;
  const cpuTimes = { parsed: [] as number[], split: [] as number[] };
  const run = (consume: (chunk: Buffer) => void, cpu: number[]): number => {
    const t = performance.now();
    const c = process.cpuUsage();
    for (let off = 0; off < bytes.length; off += CHUNK) consume(bytes.subarray(off, off + CHUNK));
    const used = process.cpuUsage(c);
    cpu.push((used.user + used.system) / 1000);
    return performance.now() - t;
  };
  const parsedTimes: number[] = [];
  const splitTimes: number[] = [];
  for (let round = 0; round < (QUICK ? 7 : 11); round++) {
    let parsed = 0;
    const reader = new StreamReader();
    // As EventStream reads them: each record typed as its lines arrive.
    reader.expect({ kind: 'listen', records: new EventRecordParser(() => 0) });
    parsedTimes.push(
      run((chunk) =>
        reader.feed(chunk, (f) => {
          if (f.type === 'event') parsed++;
        }),
        cpuTimes.parsed,
      ),
    );
    if (parsed !== COUNT) throw new Error(`parsed ${parsed} of ${COUNT}`);
    // Floor: decode and split into lines, nothing more.
    let lines = 0;
    splitTimes.push(run((chunk) => (lines += chunk.toString('latin1').split('\n').length), cpuTimes.split));
  }
  const ours = percentile(parsedTimes, 50);
  const floor = percentile(splitTimes, 50);
  console.log(`event records (${COUNT} TransReportCounters/OperationReportCounters in 16 KB chunks), median of ${parsedTimes.length} interleaved`);
  console.log(`  parsed + typed   ${fmt((COUNT / ours) * 1000, 0)} events/s`);
  console.log(`  line split only  ${fmt((COUNT / floor) * 1000, 0)} events/s (floor)`);
  const cpuRatio = percentile(cpuTimes.parsed, 50) / percentile(cpuTimes.split, 50);
  console.log(`  ratio            ${fmt(ours / floor)}x the floor's time (goal <= 2.5x)`);
  console.log(`  CPU time ratio   ${fmt(cpuRatio)}x (median CPU ms: ${fmt(percentile(cpuTimes.parsed, 50), 0)} vs ${fmt(percentile(cpuTimes.split, 50), 0)})`);
  return [atMost('event records parsed / line-split floor (CPU, interleaved)', cpuRatio, 2.5, 'x', false)];
}

export async function benchNativeMgm(): Promise<Figure[]> {
  console.log('== native-mgm');
  // First, in a heap that holds nothing yet: after the 255-node simulators of the other figures, the collector's
  // work on what they left moved both sides' times and the ratio with them (2.1x here, 2.6-3.1x after them).
  const events = eventThroughput();
  const status = await statusRoundTrip();
  const tls = await benchTls();
  return [...status, ...tls, ...events];
}
