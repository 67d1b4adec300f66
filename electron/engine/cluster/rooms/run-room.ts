import type { HistoryPoint } from '../../../contract/schemas/history.js';
import type { Incident } from '../../../contract/schemas/incidents.js';
import { phaseTimes, restartCompleted } from '../../../contract/page-safe/restart-phases.js';
import type { Run, RunNodeRestart, RunReport } from '../../../contract/schemas/runs.js';
import { ClusterHistory } from '../../facts/history/history.js';
import { InsideHistory } from '../../facts/ndbinfo/inside-history.js';
import type { CollapseConfig } from '../../features/runs/collapse.js';
import { insideFiguresOf } from '../../features/runs/bottleneck.js';
import { NodeOutages } from '../../features/runs/node-outages.js';
import { runReport } from '../../features/runs/run-summary.js';
import { DigestFold, type DigestLine } from '../../features/runs/run-digest.js';
import { RunStream, type RunStreamOptions, type StreamTick } from '../../features/runs/run-stream.js';
import { RunTracker } from '../../features/runs/run-tracker.js';
import type { TrackerInput } from '../tracker-input.js';
import type { AlertRoom } from './alerts/alert-room.js';
import type { ClusterLog } from './cluster-log.js';
import type { LoadRoom } from './load-room.js';
import type { NdbinfoRoom } from './ndbinfo-room.js';
import type { NodeBook } from './node-book.js';
import { isUp } from '../node-status.js';
import type { Room, StatusChange } from './room.js';

export interface RunRoomOptions {
  historySeconds: number;
  collapse: CollapseConfig | undefined;
  /** Gets each history sample as it is recorded. */
  sampled: (point: HistoryPoint) => void;
  /** Summarise runs as their ticks go by rather than from the history (a report's replay: `runs/run-stream.ts`). */
  streamRuns?: (RunStreamOptions & { clusterId: string }) | undefined;
  /** Fold what a report needs into digests (a recording engine: `run-digest.ts`). */
  digest?: boolean | undefined;
}

/**
 * The cluster's history (one sample per tick) and its benchmark runs: run marks, the alerts raised while watched,
 * the throughput-collapse detector fed by each sample, and run reports from the full-resolution history.
 */
export class RunRoom implements Room {
  readonly history: ClusterHistory;
  readonly inside: InsideHistory;
  readonly runs: RunTracker;
  readonly stream: RunStream | null;
  private readonly fold: DigestFold | null;
  private readonly outages = new NodeOutages();
  private failovers = 0;

  constructor(
    private readonly nodes: NodeBook,
    private readonly load: LoadRoom,
    private readonly ndbinfo: NdbinfoRoom,
    private readonly log: ClusterLog,
    alerts: AlertRoom,
    private readonly options: RunRoomOptions,
  ) {
    this.history = new ClusterHistory(options.historySeconds);
    const inside = new InsideHistory(options.historySeconds);
    this.inside = inside;
    this.runs = new RunTracker(
      {
        events: (from, to) => log.between(from, to),
        insideFigures: (from, to) => insideFiguresOf(inside.window(from, to)),
        raiseCollapse: (at, message) => alerts.occurred('throughput-collapse', 'critical', at, null, message),
      },
      options.collapse,
    );
    const stream = options.streamRuns;
    this.stream = stream ? new RunStream((t) => this.runs.book.covering(t), () => inside.knownNodeIds().length > 0, stream.clusterId, stream) : null;
    const fold = options.digest ? new DigestFold() : null;
    this.fold = fold;
    alerts.onRaised((a) => {
      this.runs.onAlert(a);
      fold?.alert('raised', a);
    });
    alerts.onResolved((a) => {
      this.runs.onResolved(a);
      fold?.alert('resolved', a);
    });
    alerts.onRevised((a) => {
      this.runs.onRevised(a);
      fold?.alert('revised', a);
    });
    if (fold) log.onEntry((view) => fold.event(view));
  }

  input(input: TrackerInput): void {
    switch (input.kind) {
      case 'run':
        this.runs.apply(input);
        break;
      case 'tick':
        this.sample(input.t);
        break;
      case 'connection': {
        const c = input.connection;
        if (c.failovers > this.failovers && c.mgmd) this.runs.note(input.t, `management server failover to ${c.mgmd.host}:${c.mgmd.port}`);
        this.failovers = c.failovers;
        break;
      }
    }
  }

  status({ nodeId, type, status, at }: StatusChange): void {
    if (type !== 'NDB') return;
    this.outages.change(nodeId, isUp(status), at);
    this.fold?.outage(nodeId, isUp(status), at);
  }

  /** The digest since the last one taken (null unless `digest`): `through` is the time of the last input applied. */
  takeDigest(c: string, t: number, through: number, final: boolean, incidents: readonly Incident[]): DigestLine | null {
    return this.fold?.take(c, t, through, this.dataNodes().map((n) => [n.nodeId, n.nodeGroup]), final, incidents) ?? null;
  }

  private dataNodes(): Array<{ nodeId: number; nodeGroup: number | null }> {
    return this.nodes
      .records()
      .filter((n) => n.state.type === 'NDB')
      .map((n) => ({ nodeId: n.state.nodeId, nodeGroup: typeof n.nodeGroup === 'number' ? n.nodeGroup : null }));
  }

  report(run: Run, source: string, now: number): RunReport {
    const dataNodes = this.dataNodes();
    return runReport(run, {
      history: this.history,
      inside: (from, to) => this.inside.window(from, to),
      ...(this.stream ? { figures: this.stream.source(run) } : {}),
      events: (from, to) => this.log.between(from, to),
      alerts: (from, to) => this.runs.activeDuring(from, to),
      restarts: (from, to) => this.restartsDuring(from, to),
      dataNodes,
      source,
      now,
    });
  }

  /**
   * The data nodes out during [from, to], each with its phases where the SQL source timed that restart: the node's
   * latest completed restart_info (or the one before a restart now running) read after it went down and before it
   * went down again.
   */
  private restartsDuring(from: number, to: number): RunNodeRestart[] {
    const outages = this.outages.during(from, to);
    // Walked newest first, so each outage knows when its node next went down without a search (a night's thousands).
    const nextDown = new Map<number, number>();
    const out: RunNodeRestart[] = [];
    for (let i = outages.length - 1; i >= 0; i--) {
      const o = outages[i] as (typeof outages)[number];
      const next = nextDown.get(o.nodeId) ?? Infinity;
      nextDown.set(o.nodeId, o.downAt);
      const n = this.ndbinfo.nodeView(o.nodeId);
      const timed = o.upAt === null ? null : [n?.restart, n?.previousRestart].find((r) => r && restartCompleted(r) && r.at >= o.downAt && r.at < next);
      out.push({ ...o, phases: timed ? phaseTimes(timed) : null });
    }
    return out.reverse();
  }

  private sample(at: number): void {
    const ids = this.nodes.dataNodeIds();
    const { cluster, perNode, total } = this.load.sample(at, ids, (id) => this.nodes.isConnected(id));
    const inside = this.ndbinfo.historyValues(ids);
    for (const [id, values] of inside.perNode) perNode.set(id, { ...perNode.get(id), ...values });
    const clusterValues = { ...cluster, ...inside.cluster };
    this.options.sampled(this.history.record(at, clusterValues, perNode));
    const insideValues = this.ndbinfo.insideValues(ids);
    this.inside.record(at, insideValues);
    if (this.stream || this.fold) {
      const tick: StreamTick = { at, cluster: clusterValues, transactions: new Map([...perNode].map(([id, v]) => [id, v.transactions ?? null])), inside: insideValues };
      this.stream?.tick(tick);
      this.fold?.tick(tick);
    }
    this.runs.sample(at, cluster.transactions ?? null, { concurrentOps: total?.concurrentOps ?? null, apiNodes: this.nodes.connectedApiNodes() });
  }
}
