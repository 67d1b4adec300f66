import type { EventView } from '../../../contract/schemas/events.js';
import type { Incident } from '../../../contract/schemas/incidents.js';
import type { Run, RunReport } from '../../../contract/schemas/runs.js';
import { readDigests } from '../../recording/digest-members.js';
import type { IndexedRun, RecordingIndex } from '../../recording/recording-index.js';
import type { Progress } from '../../recording/recording-source.js';
import { NodeOutages } from './node-outages.js';
import { RunAlerts } from './run-alerts.js';
import { RunBook } from './run-book.js';
import { DIGEST_VERSION, streamTick, type DigestLine } from './run-digest.js';
import { RunStream, type RunPicks } from './run-stream.js';
import { runReport, withIncidents } from './run-summary.js';

const MAX_EVENTS = 200;

const nodeList = (d: DigestLine): Array<{ nodeId: number; nodeGroup: number | null }> => d.dataNodes.map(([nodeId, nodeGroup]) => ({ nodeId, nodeGroup }));

/** One run as the digests tell it. */
interface DigestRun {
  run: Run;
  events: EventView[];
  /** The data nodes as the first digest taken after the run's stop knew them; null until one is read. */
  dataNodes: Array<{ nodeId: number; nodeGroup: number | null }> | null;
}

/** One cluster's runs, alerts and outages as its digests go by. */
class DigestCluster {
  readonly book = new RunBook();
  readonly alerts = new RunAlerts();
  readonly outages = new NodeOutages();
  readonly stream: RunStream;
  readonly runs: DigestRun[];
  insideKnown = false;
  /** The latest of each incident, in the order first seen. */
  private readonly incidents = new Map<string, Incident>();
  /** A digest of a version this reader does not know: its runs are played instead. */
  unknown = false;
  /** Where ticks may be missing: a process that wrote no final digest (killed), or a digest member lost. */
  private readonly gaps: Array<[number, number]> = [];
  private last: DigestLine | null = null;

  constructor(c: string, marks: RecordingIndex['marks'], picks: RunPicks | undefined) {
    for (const m of marks) if (m.c === c) this.book.apply(m);
    this.runs = this.book.list().flatMap((run) => (run.end === null ? [] : [{ run, events: [], dataNodes: null }]));
    this.stream = new RunStream((t) => this.book.covering(t), () => this.insideKnown, c, picks ? { picks } : {});
  }

  add(d: DigestLine): void {
    if (d.v !== DIGEST_VERSION) this.unknown = true;
    if (this.unknown) return;
    const last = this.last;
    if (last && (d.since === null ? !last.final : d.since !== last.t)) this.gaps.push([last.through, d.t]);
    this.last = d;
    for (const a of d.alerts) {
      if (a.op === 'raised') this.alerts.onAlert(a.alert);
      else if (a.op === 'resolved') this.alerts.onResolved(a.alert);
      else this.alerts.onRevised(a.alert);
    }
    for (const o of d.outages) this.outages.change(o.nodeId, o.up, o.at);
    for (const i of d.incidents ?? []) this.incidents.set(i.id, i);
    for (const r of this.runs) {
      const end = r.run.end as number;
      r.events.push(...d.events.filter((e) => e.at >= r.run.start && e.at <= end));
      if (r.events.length > 2 * MAX_EVENTS) r.events.splice(0, r.events.length - MAX_EVENTS);
      if (r.dataNodes === null && d.through > end) r.dataNodes = nodeList(d);
    }
    for (const t of d.ticks) {
      if (t.inside && t.inside.length > 0) this.insideKnown = true;
      this.stream.tick(streamTick(t));
    }
  }

  /** The run's report, or null when the digests cannot tell it as a replay would (it is played instead). */
  report(r: DigestRun, source: string): RunReport | null {
    const end = r.run.end as number;
    // Every tick up to the stop was digested: a digest was taken after it, or the last one was the close's.
    const dataNodes = r.dataNodes ?? (this.last?.final ? nodeList(this.last) : null);
    if (this.unknown || dataNodes === null || this.gaps.some(([from, to]) => from <= end && to >= r.run.start)) return null;
    const outages = this.outages.during(r.run.start, end);
    // A restart's phases come from the SQL source's restart_info, which digests do not carry.
    if (outages.length > 0 && this.insideKnown) return null;
    const report = runReport(r.run, {
      figures: this.stream.source(r.run),
      events: () => r.events,
      alerts: (from, to) => this.alerts.activeDuring(from, to),
      restarts: () => outages.map((o) => ({ ...o, phases: null })),
      dataNodes,
      source,
      now: end,
    });
    // Newest first, as the tracker lists them.
    return withIncidents(report, r.run, [...this.incidents.values()].reverse());
  }
}

async function pass(file: string, index: RecordingIndex, picks: RunPicks | undefined, onProgress?: Progress): Promise<Map<string, DigestCluster>> {
  const clusters = new Map<string, DigestCluster>();
  for await (const d of readDigests(file, index, onProgress)) {
    let cluster = clusters.get(d.c);
    if (!cluster) clusters.set(d.c, (cluster = new DigestCluster(d.c, index.marks, picks)));
    cluster.add(d);
  }
  return clusters;
}

/**
 * The reports of a recording's runs from its digests (`run-digest.ts`), read from the digest members alone:
 * the same ticks, alerts, events and outages a replay would derive, summarised by the same code (`RunStream`,
 * `runReport`). Keyed by cluster and run id; a run the digests do not cover (no digest past its stop: the
 * recorder was killed) or cannot tell is absent, and the caller plays it.
 */
export async function digestReports(file: string, index: RecordingIndex, source: string, onProgress?: Progress): Promise<Map<string, RunReport>> {
  let clusters = await pass(file, index, undefined, onProgress);
  // A stretch that never held steady is read at its ticks near the peak, known only at its end: a second pass picks them.
  const picks = new Map([...clusters.values()].flatMap((c) => [...c.stream.unresolved(c.runs.map((r) => r.run))]));
  if (picks.size > 0) clusters = await pass(file, index, picks);
  const out = new Map<string, RunReport>();
  for (const [c, cluster] of clusters) {
    for (const r of cluster.runs) {
      const report = cluster.report(r, source);
      if (report) out.set(digestKey({ c, runId: r.run.id }), report);
    }
  }
  return out;
}

export const digestKey = (run: Pick<IndexedRun, 'c' | 'runId'>): string => `${run.c}\u0000${run.runId}`;
