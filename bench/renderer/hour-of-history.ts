import { METRICS, type Metric } from '../../electron/contract/index.js';
import { Engine } from '../../electron/engine/engine.js';
import type { EngineHost } from '../../electron/engine/core/engine-host.js';
import type { MetricValues } from '../../electron/engine/facts/history/history.js';

/** Per data node, per second, roughly what the simulator's benchmark load gives. */
const TYPICAL: Record<Metric, number> = { transactions: 125, commits: 120, reads: 900, writes: 220, scans: 8, aborts: 0.5, operations: 1150, dataMemory: 30, indexMemory: 20, hottestThread: 60, redoFill: 25 };

/**
 * Fills the engine's history with `seconds` of one-a-second samples for `dataNodeIds`, ending a second before
 * `now`, as if it had been watching the cluster that long. Must run before the engine's first tick (right after
 * it is created): the history is a ring in time order, so older samples cannot come after live ones.
 */
export function fillHistory(host: EngineHost, dataNodeIds: readonly number[], seconds: number, now = Date.now()): number {
  if (!(host instanceof Engine)) throw new TypeError('an hour of history needs the in-process engine');
  let points = 0;
  for (const entry of host.entries()) {
    for (let i = seconds; i >= 1; i--) {
      const at = now - i * 1000;
      // A slow wave plus per-node offsets: charts and decimation see shapes, not a flat line.
      const wave = 1 + 0.3 * Math.sin((at / 60_000) * Math.PI);
      const cluster: MetricValues = {};
      const nodes = new Map<number, MetricValues>();
      for (const id of dataNodeIds) {
        const values: MetricValues = {};
        for (const m of METRICS) {
          const memory = m === 'dataMemory' || m === 'indexMemory';
          const v = memory ? TYPICAL[m] : TYPICAL[m] * wave * (1 + ((id * 7) % 10) / 50);
          values[m] = v;
          if (!memory) cluster[m] = (cluster[m] ?? 0) + v;
        }
        nodes.set(id, values);
      }
      entry.tracker.history.record(at, cluster, nodes);
      points += 1;
    }
  }
  return points;
}
