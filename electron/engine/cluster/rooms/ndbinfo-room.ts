import { linksSummary } from '../../../contract/page-safe/links-summary.js';
import type { NdbinfoLinks, NdbinfoNode, NdbinfoRestart, NdbinfoSelfLoad, NdbinfoSourceView, NdbinfoView } from '../../../contract/schemas/ndbinfo.js';
import type { SelfLoad, SourceState } from '../../../../ndbinfo/client/ndbinfo-source.js';
import type { ReadingKey } from '../../../../ndbinfo/client/rows.js';
import type { Sample } from '../../../../ndbinfo/client/sample.js';
import type { MetricValues } from '../../facts/history/history.js';
import { insideValues, type InsideValues } from '../../facts/ndbinfo/inside-history.js';
import { FillTrends } from '../../features/alerts/fill-trend.js';
import { featuresOf, ndbVersionOf } from '../../facts/ndbinfo/capabilities.js';
import { byNode, diskPageBufferFigure, diskWriteFigure, hostCpuFigure, linkFigure, logFill, restartFigure, sendBufferFigure, threadsFigure } from '../../facts/ndbinfo/figures.js';
import type { TrackerInput } from '../tracker-input.js';
import type { Room } from './room.js';

type Figures = Omit<NdbinfoNode, 'nodeId' | 'stale'>;
/** The fills whose trend is derived: redo, undo and send buffers. */
const TRENDED = ['redo', 'undo', 'sendBuffer'] as const;
const EMPTY: Figures = { threads: null, redo: null, undo: null, sendBuffer: null, diskWrite: null, diskPageBuffer: null, restart: null };

/**
 * The SQL source's figures (ndbinfo): per data node threads, redo/undo fill, send buffers, disk write speed and
 * last restart; the links between nodes; the source's link and self-load. Each node's record is replaced, never
 * changed, so the delta leaves unchanged nodes out by identity. Figures keep the time they were observed; a lost
 * source turns them all stale (kept, greyed) until the next reading, as mgm figures do.
 */
export class NdbinfoRoom implements Room {
  private source: NdbinfoSourceView | null = null;
  private selfLoad: NdbinfoSelfLoad | null = null;
  private links: NdbinfoLinks | null = null;
  private readonly nodes = new Map<number, NdbinfoNode>();
  private viewCache: NdbinfoView | null = null;
  private nodesCache: NdbinfoNode[] | null = null;
  private readonly trends = new FillTrends();

  input(input: Exclude<TrackerInput, { kind: 'event' }>): void {
    if (input.kind === 'ndbinfo') this.applySample(input.sample);
    else if (input.kind === 'ndbinfo-link') this.link(input.state);
    else if (input.kind === 'ndbinfo-load') this.load(input.t, input.load);
  }

  forget(nodeId: number): void {
    if (this.nodes.delete(nodeId)) this.nodesCache = null;
    for (const fill of TRENDED) this.trends.forget(`${nodeId}:${fill}`);
  }

  /** The cluster-wide part; null while no SQL source was ever told of. Same object while nothing changed. */
  view(): NdbinfoView | null {
    if (!this.source) return null;
    this.viewCache ??= { source: this.source, selfLoad: this.selfLoad, links: this.links && linksSummary(this.links) };
    return this.viewCache;
  }

  /** The links data nodes `nodeIds` count (every one's without it); null before the first transporters reading. */
  linkView(nodeIds?: readonly number[]): NdbinfoLinks | null {
    if (!this.links || !nodeIds) return this.links;
    const wanted = new Set(nodeIds);
    return { ...this.links, links: this.links.links.filter((l) => wanted.has(l.nodeId)) };
  }

  /** One data node's figures, without building the sorted list. */
  nodeView(nodeId: number): NdbinfoNode | undefined {
    return this.nodes.get(nodeId);
  }

  nodeViews(): NdbinfoNode[] {
    this.nodesCache ??= [...this.nodes.values()].sort((a, b) => a.nodeId - b.nodeId);
    return this.nodesCache;
  }

  private applySample(sample: Sample): void {
    const at = sample.at;
    const reading: ReadingKey = sample.reading;
    switch (reading) {
      case 'cpu':
        this.perNode(sample, true, (rows) => ({ threads: threadsFigure(rows as Sample<'cpu'>['rows'], at) }));
        break;
      case 'logspaces':
        this.perNode(sample, false, (rows) => {
          const logs = rows as Sample<'logspaces'>['rows'];
          const id = logs[0]?.nodeId;
          return { redo: this.trended(id, 'redo', logFill(logs, 'REDO', at)), undo: this.trended(id, 'undo', logFill(logs, 'DD-UNDO', at)) };
        });
        break;
      case 'transporterDetails':
        this.perNode(sample, false, (rows) => {
          const details = rows as Sample<'transporterDetails'>['rows'];
          return { sendBuffer: this.trended(details[0]?.nodeId, 'sendBuffer', sendBufferFigure(details, at)) };
        });
        break;
      case 'diskWriteSpeed':
        this.perNode(sample, false, (rows) => {
          const first = (rows as Sample<'diskWriteSpeed'>['rows'])[0];
          return first ? { diskWrite: diskWriteFigure(first, at) } : {};
        });
        break;
      case 'restarts':
        this.perNode(sample, false, (rows) => {
          const first = (rows as Sample<'restarts'>['rows'])[0];
          return first ? this.restartFigures(first.nodeId, restartFigure(first, at)) : {};
        });
        break;
      case 'transporters':
        this.links = { at, stale: false, links: (sample.rows as Sample<'transporters'>['rows']).map(linkFigure) };
        this.viewCache = null;
        break;
      case 'hostCpu':
        this.perNode(sample, false, (rows) => ({ hostCpu: hostCpuFigure(rows as Sample<'hostCpu'>['rows'], at) }));
        break;
      case 'diskPageBuffer':
        this.perNode(sample, false, (rows) => ({ diskPageBuffer: diskPageBufferFigure(rows as Sample<'diskPageBuffer'>['rows'], at) }));
        break;
      default:
        // memory, resources, logbuffers: read by the source, not yet shown.
        break;
    }
  }

  /** A fill with its trend over the node's last readings of it (`FillTrends`), derived here once for every view and alert. */
  private trended<F extends { at: number; percent: number | null }>(nodeId: number | undefined, fill: (typeof TRENDED)[number], figure: F | null): F | null {
    if (!figure || figure.percent === null || nodeId === undefined) return figure;
    return { ...figure, trend: this.trends.add(`${nodeId}:${fill}`, figure.at, figure.percent) };
  }

  /** A new restart under way keeps the completed one before it: its phases are the new one's baseline. */
  private restartFigures(nodeId: number, read: NdbinfoRestart): Partial<Figures> {
    const before = this.nodes.get(nodeId)?.restart;
    // Since when this status: the restart's one state weighs it against the management server's start phase.
    const same = before && before.status === read.status && before.statusName === read.statusName;
    const restart = { ...read, since: same ? (before.since ?? before.at) : read.at };
    if (restart.inProgress && before && before.inProgress === false) return { restart, previousRestart: before };
    return { restart };
  }

  /** History per data node: the hottest thread's busy share and the redo log's fill, null when stale or unknown. */
  historyValues(dataIds: readonly number[]): { cluster: MetricValues; perNode: Map<number, MetricValues> } {
    const perNode = new Map<number, MetricValues>();
    let hottest: number | null = null;
    let redo: number | null = null;
    for (const id of dataIds) {
      const n = this.nodes.get(id);
      const hot = n && !n.stale ? (n.threads?.hottest?.busy ?? null) : null;
      const fill = n && !n.stale ? (n.redo?.percent ?? null) : null;
      perNode.set(id, { hottestThread: hot, redoFill: fill });
      if (hot !== null) hottest = Math.max(hottest ?? 0, hot);
      if (fill !== null) redo = Math.max(redo ?? 0, fill);
    }
    return { cluster: { hottestThread: hottest, redoFill: redo }, perNode };
  }

  /** Each data node's figures for the bottleneck verdict (none for a node the source did not report or lost). */
  insideValues(dataIds: readonly number[]): Map<number, InsideValues> {
    const out = new Map<number, InsideValues>();
    const links = this.links && !this.links.stale ? this.links.links : [];
    for (const id of dataIds) {
      const n = this.nodes.get(id);
      if (n && !n.stale) out.set(id, insideValues(n, links));
    }
    return out;
  }

  /**
   * Applies one reading to each node in it. `heartbeat`: the per-second reading, whose rows every running data
   * node answers; a node missing from it is not running, so its figures turn stale.
   */
  private perNode(sample: Sample, heartbeat: boolean, figures: (rows: Sample['rows']) => Partial<Figures>): void {
    const grouped = byNode(sample.rows as Array<{ nodeId: number }>);
    for (const [id, rows] of grouped) {
      const before = this.nodes.get(id);
      this.nodes.set(id, { ...(before ?? { nodeId: id, ...EMPTY }), ...figures(rows as Sample['rows']), stale: heartbeat ? false : (before?.stale ?? false) });
    }
    if (heartbeat) for (const [id, n] of this.nodes) if (!grouped.has(id) && !n.stale) this.nodes.set(id, { ...n, stale: true });
    this.nodesCache = null;
  }

  private link(state: SourceState): void {
    const before = this.source;
    const failovers = state.kind === 'up' ? state.failovers : (before?.failovers ?? 0);
    this.source = {
      status: state.kind,
      since: state.at,
      sqlNode: state.kind === 'closed' ? (before?.sqlNode ?? null) : state.sqlNode,
      serverVersion: state.kind === 'up' ? state.serverVersion : (before?.serverVersion ?? null),
      tls: state.kind === 'up' ? state.tls : (before?.tls ?? false),
      missing: state.kind === 'up' ? state.missing : (before?.missing ?? []),
      ...this.release(state, before),
      failovers,
      lastError: state.kind === 'lost' || state.kind === 'failing' ? state.reason : state.kind === 'connecting' ? state.lastError : null,
    };
    this.viewCache = null;
    // Failing readings leave their figures to age as they are; those that still answer stay fresh.
    if (state.kind === 'up' || state.kind === 'failing') return;
    // Whatever the source said is as old as its last answer now.
    for (const [id, n] of this.nodes) if (!n.stale) this.nodes.set(id, { ...n, stale: true });
    if (this.links && !this.links.stale) this.links = { ...this.links, stale: true };
    this.nodesCache = null;
  }

  /** What the SQL node's release gives and lacks, derived when it comes up and kept while it is away. */
  private release(state: SourceState, before: NdbinfoSourceView | null): Pick<NdbinfoSourceView, 'ndbVersion' | 'features'> {
    if (state.kind !== 'up') return before?.features ? { ndbVersion: before.ndbVersion ?? null, features: before.features } : {};
    return { ndbVersion: ndbVersionOf(state.serverVersion), features: featuresOf({ serverVersion: state.serverVersion, missing: state.missing, absentColumns: state.absentColumns ?? [] }) };
  }

  private load(at: number, load: SelfLoad): void {
    const readings: NdbinfoSelfLoad['readings'] = {};
    for (const [key, r] of Object.entries(load.readings)) if (r) readings[key] = { ...r };
    this.selfLoad = { at, share: load.share, load: load.load, stretch: load.stretch, shedding: load.shedding, queries: load.queries, readings };
    this.viewCache = null;
  }
}
