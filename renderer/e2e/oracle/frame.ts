import type { Alert, AlertHistoryEntry, ClusterSnapshot, NodeStatus } from '../../../electron/contract/index.js';

/** What the page showed at one moment, read in one evaluation (so two panels are compared at the same instant). */
export interface DomView {
  /** The view shown (`main[data-view]`). */
  view: string | null;
  /** Node cards or tiles of the grid. */
  cards: Array<{ nodeId: number; status: string; startPhase: number; old: boolean }>;
  /** The rolling-restart panel's "Restarting" entries: the node's status and last completed start phase as shown. */
  restarting: Array<{ nodeId: number; status: string; startPhase: number; text: string }>;
  /** The rolling-restart panel's state (`running`, `complete`, `idle`), null when it is not on the page. */
  rollingState: string | null;
  /** The Restart phases table's rows: the restart_info phase each says runs now ('' = restart completed). */
  phases: Array<{ nodeId: number; current: string }>;
  /** The banner's rows, top first (`nodeId`: a single alert's node; null for a row folding many, or a cluster's). */
  banner: Array<{ severity: string; kind: string; nodeId: number | null; text: string }>;
  /** Whole texts of elements that show one figure (a card's rate, a legend value, a headline tile, a memory row). */
  figures: Array<{ where: string; text: string; stale: boolean }>;
  /**
   * The throughput chart's drawn lines (null when it is not on the page): each unbroken run of a line as the times of
   * its points (ms since the epoch, from their x position over the axis's domain), and the window shown.
   */
  chart: { windowMs: number; lines: Array<{ series: string; times: number[] }> } | null;
  /** The rolling-restart ETA(s) the page shows, ms since the epoch: [earliest, latest] (one figure: both the same). */
  eta: { min: number; max: number } | null;
  /** Every visible element's text that holds a digit, as the element reads, and its parent's (absent in frames made by hand). */
  texts?: Array<{ where: string; text: string; context: string }>;
}

/** What the simulator's model said at the frame (ground truth). */
export interface Truth {
  /** Data nodes' status and last completed start phase. */
  nodes: Array<{ nodeId: number; status: string; startPhase: number }>;
  /** Management servers that answer. */
  mgmdsUp: number;
  /** When the rolling-restart round under way ends by the simulator's own timings (wall ms), when it can be told. */
  roundFinish?: number | null;
}

export interface Frame {
  scenario: string;
  dataNodes: number;
  /** Seconds since the page was first read. */
  second: number;
  /** Wall clock of the frame (the engine's clock: alerts' and ETAs' times are on it). */
  at: number;
  dom: DomView;
  /** The engine's snapshot read just before the page was read, and just after (a change in between is no contradiction). */
  before: ClusterSnapshot;
  after: ClusterSnapshot;
  /** `/api/alerts/history`'s entries. */
  history: AlertHistoryEntry[];
  truth: Truth;
  /** The ETA read under chart windows in turn in the same frame (the first window again last: the ETA may move by itself). */
  etaByWindow?: Array<{ window: string; eta: DomView['eta'] }>;
}

/** One broken invariant: what one place said, and what the other said. */
export interface Violation {
  invariant: string;
  said: string;
  against: string;
}

export const ACTIVE = (a: Alert): boolean => a.resolvedAt === null && !a.acknowledged;

/**
 * The engine's reads a page may be showing at this frame: this frame's two and the previous frame's last. The page
 * gets the engine's changes pushed, a moment later: lagging it by less than a second is no contradiction.
 */
export const ENGINE_READS = (frame: Frame, earlier: readonly Frame[]): ClusterSnapshot[] => [earlier.at(-1)?.after, frame.before, frame.after].filter((s): s is ClusterSnapshot => s !== undefined);

export const STATUSES_SEEN = (reads: readonly ClusterSnapshot[], nodeId: number): Set<NodeStatus> =>
  new Set(reads.flatMap((s) => s.nodes.filter((n) => n.nodeId === nodeId).map((n) => n.status)));
