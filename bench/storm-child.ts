/**
 * One engine in its own process for `storm.bench.ts`: watches the cluster at argv[2] until its argv[4] data nodes
 * are all STARTED, then measures itself over argv[3] seconds and prints one JSON line of figures (its own event
 * loop's lag, CPU and busy time, how many events it took and which incidents it derived).
 */
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { createEngine } from '../electron/engine/index.js';

export interface StormFigures {
  wallMs: number;
  cpuMs: number;
  /** The main thread's busy time (event loop utilisation). */
  loopBusyMs: number;
  lagP50Ms: number;
  lagP99Ms: number;
  lagMaxMs: number;
  /** Events the engine logged in the span. */
  events: number;
  /** Incidents it derived in the span, by cause. */
  incidents: Record<string, number>;
}

const STARTED_WITHIN_MS = 120_000;

async function main(connectstring: string, seconds: number, dataNodes: number): Promise<StormFigures> {
  const engine = await createEngine({ host: 'serve', clusters: [{ connectstring }], simulator: false, historySeconds: 60, eventLogSize: 2000 });
  try {
    const until = Date.now() + STARTED_WITHIN_MS;
    for (;;) {
      const { nodes } = await engine.handlers.getSnapshot({});
      if (nodes.filter((n) => n.type === 'NDB' && n.status === 'STARTED').length >= dataNodes) break;
      if (Date.now() > until) throw new Error(`not all ${dataNodes} data nodes STARTED within ${STARTED_WITHIN_MS / 1000} s`);
      await new Promise((r) => setTimeout(r, 500));
    }
    const seq = async (): Promise<number> => (await engine.handlers.getEvents({ limit: 1 }))[0]?.seq ?? 0;
    const seq0 = await seq();
    const t0 = performance.now();
    const lag = monitorEventLoopDelay({ resolution: 10 });
    lag.enable();
    const cpu0 = process.cpuUsage();
    const elu0 = performance.eventLoopUtilization();
    await new Promise((r) => setTimeout(r, seconds * 1000));
    const cpu = process.cpuUsage(cpu0);
    const elu = performance.eventLoopUtilization(elu0);
    lag.disable();
    const wallMs = performance.now() - t0;
    const incidents: Record<string, number> = {};
    for (const i of (await engine.handlers.getIncidents({ sinceMs: Date.now() - wallMs })).incidents) incidents[i.cause.kind] = (incidents[i.cause.kind] ?? 0) + 1;
    return {
      wallMs,
      cpuMs: (cpu.user + cpu.system) / 1000,
      loopBusyMs: elu.active,
      lagP50Ms: lag.percentile(50) / 1e6,
      lagP99Ms: lag.percentile(99) / 1e6,
      lagMaxMs: lag.max / 1e6,
      events: (await seq()) - seq0,
      incidents,
    };
  } finally {
    await engine.close();
  }
}

const [connectstring, seconds, dataNodes] = process.argv.slice(2);
if (connectstring && seconds && dataNodes) {
  process.stdout.write(`${JSON.stringify(await main(connectstring, Number(seconds), Number(dataNodes)))}\n`);
  process.exit(0);
}
