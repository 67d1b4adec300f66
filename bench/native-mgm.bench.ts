import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { MgmClient } from '../native-mgm/client/mgm-client.js';
import { parseEventRecord } from '../native-mgm/events/parse-event.js';
import { StreamReader } from '../native-mgm/protocol/stream-reader.js';
import { startSimulator } from '../native-mgm/sim/index.js';
import { fmt, percentile } from './stats.js';
import { benchTls } from './tls.bench.js';

const ROUNDS = 400;

/** The floor: the same request bytes and the same reply bytes, with no parsing beyond finding its end. */
async function rawRoundTrip(socket: Socket): Promise<void> {
  socket.write('get status\n\n');
  let tail = '';
  for (;;) {
    const [chunk] = (await once(socket, 'data')) as [Buffer];
    tail = (tail + chunk.toString('latin1')).slice(-2);
    if (tail === '\n\n') return;
  }
}

async function statusRoundTrip(): Promise<void> {
  const sim = await startSimulator({ dataNodes: 144, replicas: 2, mgmNodes: 2, apiNodes: 109, connectedApiNodes: 80, scenario: 'idle' });
  try {
    const client = new MgmClient({ connectstring: sim.connectstring });
    await client.connect();
    const mgmd = sim.mgmds[0];
    if (!mgmd) throw new Error('no mgmd');
    const raw = connect(mgmd.port, mgmd.host);
    raw.setNoDelay(true);
    await once(raw, 'connect');
    // A status reply must finish with the only empty line in it; check that once before trusting the floor.
    const nodes = await client.getStatus();
    if (nodes.length !== 255) throw new Error(`expected 255 nodes, got ${nodes.length}`);
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
    raw.destroy();
    client.close();
    const p50 = percentile(ours, 50) / percentile(floor, 50);
    const p95 = percentile(ours, 95) / percentile(floor, 95);
    console.log(`get status, 255 nodes (~55 KB), ${ROUNDS} interleaved round trips`);
    console.log(`  raw socket  p50 ${fmt(percentile(floor, 50))} ms  p95 ${fmt(percentile(floor, 95))} ms`);
    console.log(`  MgmClient   p50 ${fmt(percentile(ours, 50))} ms  p95 ${fmt(percentile(ours, 95))} ms  (parsed into typed NodeState[])`);
    console.log(`  ratio       p50 ${fmt(p50)}x  p95 ${fmt(p95)}x   (goal <= 1.5x)`);
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

function eventThroughput(): void {
  const COUNT = 200_000;
  const bytes = eventRecords(COUNT);
  const CHUNK = 16 * 1024;
  const run = (consume: (chunk: Buffer) => void): number => {
    const t = performance.now();
    for (let off = 0; off < bytes.length; off += CHUNK) consume(bytes.subarray(off, off + CHUNK));
    return performance.now() - t;
  };
  const parsedTimes: number[] = [];
  const splitTimes: number[] = [];
  for (let round = 0; round < 5; round++) {
    let parsed = 0;
    const reader = new StreamReader();
    reader.expect({ kind: 'listen' });
    parsedTimes.push(
      run((chunk) =>
        reader.feed(chunk, (f) => {
          if (f.type === 'record') {
            parseEventRecord(f.pairs, 0);
            parsed++;
          }
        }),
      ),
    );
    if (parsed !== COUNT) throw new Error(`parsed ${parsed} of ${COUNT}`);
    // Floor: decode and split into lines, nothing more.
    let lines = 0;
    splitTimes.push(run((chunk) => (lines += chunk.toString('latin1').split('\n').length)));
  }
  const ours = percentile(parsedTimes, 50);
  const floor = percentile(splitTimes, 50);
  console.log(`event records (${COUNT} TransReportCounters/OperationReportCounters in 16 KB chunks), median of 5`);
  console.log(`  parsed + typed   ${fmt((COUNT / ours) * 1000, 0)} events/s`);
  console.log(`  line split only  ${fmt((COUNT / floor) * 1000, 0)} events/s (floor)`);
  console.log(`  ratio            ${fmt(ours / floor)}x the floor's time`);
}

export async function benchNativeMgm(): Promise<void> {
  console.log('== native-mgm');
  await statusRoundTrip();
  await benchTls();
  eventThroughput();
}
