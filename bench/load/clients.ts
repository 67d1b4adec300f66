import WebSocket from 'ws';
import { HEARTBEAT_TAG, PUSH_TAG, RESYNC_TAG } from '../../electron/contract/page-safe/ws-protocol.js';

/**
 * The WebSocket clients of `npm run load`, in a process of their own so that the serve process's CPU and RSS are
 * its own: `readers` clients that read everything, and optionally one that never reads and one that reads at
 * `slowKBps` (reconnecting, as a page does, when the server drops it). Every delta's receipt time (wall clock,
 * the same one the serve process stamps its pushes with) goes back to the parent with the slow clients' story.
 */
export interface ClientsJob {
  url: string;
  readers: number;
  ms: number;
  slowKBps: number | null;
}
export interface ClientsReport {
  /** Per reader: [delta key, received at] pairs. */
  receipts: Array<Array<[string, number]>>;
  /** kB the readers received, together. */
  kb: number;
  slow: { resyncs: number; drops: number; pushes: number; kb: number } | null;
  /** What a client that never read found waiting once it read again, and whether it was still connected. */
  stalled: { kbWaiting: number; stillOpen: boolean } | null;
}

const now = (): number => performance.timeOrigin + performance.now();

function connect(url: string): Promise<WebSocket> {
  const ws = new WebSocket(url);
  ws.on('error', () => undefined);
  return new Promise((resolve, reject) => ws.once('open', () => resolve(ws)).once('error', reject));
}

interface Frame {
  type: string;
  message?: { type: string; delta?: { clusterId: string; version: number } };
}
const deltaKey = (frame: Frame): string | null =>
  frame.message?.type === 'delta' && frame.message.delta ? `${frame.message.delta.clusterId}:${frame.message.delta.version}` : null;

let readerKb = 0;
async function reader(url: string): Promise<{ ws: WebSocket; receipts: Array<[string, number]> }> {
  const ws = await connect(url);
  const receipts: Array<[string, number]> = [];
  ws.on('message', (data) => {
    const at = now();
    readerKb += String(data).length / 1024;
    const frame = JSON.parse(String(data)) as Frame;
    if (frame.type !== PUSH_TAG) return;
    const k = deltaKey(frame);
    if (k) receipts.push([k, at]);
  });
  return { ws, receipts };
}

/** Reads at most `kBps` kB a second (pausing the socket when ahead), reconnecting when dropped. */
function slowReader(url: string, kBps: number): { stop(): void; stats: NonNullable<ClientsReport['slow']> } {
  const stats = { resyncs: 0, drops: 0, pushes: 0, kb: 0 };
  const started = now();
  let stopped = false;
  let ws: WebSocket | null = null;
  const open = async (): Promise<void> => {
    if (stopped) return;
    ws = await connect(url);
    ws.on('message', (data) => {
      stats.kb += String(data).length / 1024;
      const type = (JSON.parse(String(data)) as { type: string }).type;
      if (type === RESYNC_TAG) stats.resyncs += 1;
      else if (type === PUSH_TAG) stats.pushes += 1;
      else if (type !== HEARTBEAT_TAG) return;
      const aheadMs = (stats.kb / kBps) * 1000 - (now() - started);
      if (aheadMs > 0 && ws) {
        const paused = ws;
        paused.pause();
        setTimeout(() => paused.resume(), aheadMs);
      }
    });
    ws.once('close', () => {
      if (stopped) return;
      stats.drops += 1;
      void open();
    });
  };
  void open();
  return {
    stats,
    stop() {
      stopped = true;
      (ws as WebSocket | null)?.terminate();
    },
  };
}

async function run(job: ClientsJob): Promise<ClientsReport> {
  const readers = await Promise.all(Array.from({ length: job.readers }, () => reader(job.url)));
  const stalledWs = job.slowKBps === null ? null : await connect(job.url);
  stalledWs?.pause();
  const slow = job.slowKBps === null ? null : slowReader(job.url, job.slowKBps);
  process.send?.({ ready: true });
  await new Promise((r) => setTimeout(r, job.ms));
  let stalled: ClientsReport['stalled'] = null;
  if (stalledWs) {
    let bytes = 0;
    stalledWs.on('message', (data) => (bytes += String(data).length));
    const closed = new Promise((r) => stalledWs.once('close', r));
    stalledWs.resume();
    // What was queued for it arrives at once; a socket the server dropped reports its close after that.
    await Promise.race([closed, new Promise((r) => setTimeout(r, 3000))]);
    stalled = { kbWaiting: bytes / 1024, stillOpen: stalledWs.readyState === WebSocket.OPEN };
  }
  slow?.stop();
  for (const r of readers) r.ws.terminate();
  stalledWs?.terminate();
  return { receipts: readers.map((r) => r.receipts), kb: readerKb, slow: slow?.stats ?? null, stalled };
}

process.once('message', (job: ClientsJob) => {
  void run(job).then(
    (report) => process.send?.(report, () => process.exit(0)),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
});
