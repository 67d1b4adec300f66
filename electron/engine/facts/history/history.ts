import { type HistoryPoint, type HistoryQuery, type HistorySeries, type Metric } from '../../../contract/schemas/history.js';
import { METRICS } from '../../../contract/page-safe/vocabulary.js';
import { decimate } from './decimate.js';
import { NodeRingHistory } from './node-ring-history.js';

export type MetricValues = Partial<Record<Metric, number | null>>;

export const clusterKey = (metric: Metric): string => `cluster.${metric}`;
export const nodeKey = (nodeId: number, metric: Metric): string => `node.${nodeId}.${metric}`;
const CLUSTER_KEYS = METRICS.map(clusterKey);
/** The engine samples once a second (a history's capacity is in seconds). */
const SAMPLE_MS = 1000;
/** Two samples further apart than this have at least one second between them that was never sampled. */
const LOST_STEP_MS = 2.5 * SAMPLE_MS;

/** One cluster's history: cluster totals and per-data-node series, one sample per tick. */
export class ClusterHistory extends NodeRingHistory {
  private readonly nodeKeys = new Map<number, readonly string[]>();
  private flat = new Float64Array(0);

  record(at: number, cluster: MetricValues, nodes: ReadonlyMap<number, MetricValues>): HistoryPoint {
    const values: Record<string, number | null> = {};
    const groups: Array<readonly string[]> = [CLUSTER_KEYS];
    const flat = this.scratch((nodes.size + 1) * METRICS.length);
    let j = 0;
    const take = (keys: readonly string[], v: MetricValues): void => {
      for (let i = 0; i < METRICS.length; i++) {
        const x = v[METRICS[i] as Metric] ?? null;
        values[keys[i] as string] = x;
        flat[j++] = x ?? NaN;
      }
    };
    take(CLUSTER_KEYS, cluster);
    // forEach, not for…of: no [id, values] pair made for each of 144 nodes every second.
    nodes.forEach((v, id) => {
      this.nodeIds.add(id);
      const keys = this.keysOf(id);
      groups.push(keys);
      take(keys, v);
    });
    this.ring.pushColumns(at, groups, flat);
    return { at, values };
  }

  /** Room for one sample's values, kept from second to second. */
  private scratch(length: number): Float64Array {
    if (this.flat.length < length) this.flat = new Float64Array(length);
    return this.flat;
  }

  /**
   * A data node's keys, made once: a sample a second writes every node's (~2,000 at 144 data nodes), and a string
   * made anew is hashed anew at each lookup.
   */
  private keysOf(id: number): readonly string[] {
    let keys = this.nodeKeys.get(id);
    if (!keys) this.nodeKeys.set(id, (keys = METRICS.map((m) => nodeKey(id, m))));
    return keys;
  }

  /**
   * `shown`: for a chart, a second with no sample (the engine's loop held, a hole in a replayed recording) becomes a
   * row of no figures, so the line breaks there instead of crossing seconds nobody measured. The engine's own
   * derivations (run figures, incident figures, exports) read the samples as taken.
   */
  query(q: HistoryQuery, { shown = false }: { shown?: boolean } = {}): HistorySeries {
    const { start, end } = this.ring.range(q.fromMs ?? 0, q.toMs ?? Number.MAX_SAFE_INTEGER);
    const at: number[] = [];
    const rows: Array<number | null> = [];
    for (let i = start; i < end; i++) {
      const t = this.ring.timeAt(i);
      const previous = at.at(-1);
      if (shown && previous !== undefined && t - previous > LOST_STEP_MS) {
        at.push(previous + SAMPLE_MS);
        rows.push(null);
      }
      at.push(t);
      rows.push(i);
    }
    const wanted = [
      ...q.metrics.map((metric) => ({ key: clusterKey(metric), metric, nodeId: null as number | null })),
      ...(q.nodeIds ?? []).flatMap((nodeId) => q.metrics.map((metric) => ({ key: nodeKey(nodeId, metric), metric, nodeId: nodeId as number | null }))),
    ];
    const raw = wanted.map((w) => rows.map((i) => (i === null ? null : this.ring.valueAt(w.key, i))));
    // The window asked for sets the buckets' length, so it stays the same while the window slides.
    const span = q.fromMs !== undefined && q.toMs !== undefined ? { fromMs: q.fromMs, toMs: q.toMs } : undefined;
    const d = q.maxPoints === undefined ? { at, series: raw } : decimate(at, raw, q.maxPoints, span);
    return { at: d.at, series: wanted.map((w, i) => ({ ...w, values: d.series[i] ?? [] })) };
  }
}
