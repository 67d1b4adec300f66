import type { Alert, AlertHistoryEntry, BackupStatus, ClusterSnapshot, Incident, NodeStatus } from '../../../electron/contract/index.js';

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
  /** The Backups view, as its texts read (absent unless it is shown). */
  backups?: BackupsShown;
  /** The Incidents view, as its texts read (absent unless it is shown). */
  incidents?: IncidentsShown;
  /** Every visible element's text that holds a digit, as the element reads, and its parent's (absent in frames made by hand). */
  texts?: Array<{ where: string; text: string; context: string }>;
}

/** The Backups view: the running backup's texts, each node's row, the past backups' rows. */
export interface BackupsShown {
  running: {
    backupId: number;
    /** "1.2 GiB of about 3.4 GiB · 123,456 records". */
    written: string;
    rate: string;
    eta: string;
    /** The ETA range the words stand for, ms since the epoch (the view's own data attributes); null when it gives none. */
    etaFrom: number | null;
    etaTo: number | null;
    nodes: Array<{ nodeId: number; written: string; of: string; records: string }>;
  } | null;
  /** Newest first. */
  past: Array<{ backupId: number; outcome: string; took: string; size: string; records: string; rate: string }>;
}

/** The Incidents view: its list and the incident opened beside it. */
export interface IncidentsShown {
  /** Newest first. */
  rows: Array<{ id: string; kind: string; nodes: string; restart: string }>;
  detail: {
    id: string;
    kind: string;
    restart: string;
    /** The timeline's rows: seconds from the fall as shown ("+12.5"), lane, words. */
    marks: Array<{ offset: string; lane: string; text: string }>;
    /** The minute before: node, figure, last and peak as shown. */
    figures: Array<{ nodeId: number; name: string; last: string; peak: string }>;
  } | null;
}

/** A data node the simulator took out of STARTED, and when (wall ms) it began starting and was STARTED again. */
export interface Fall {
  nodeId: number;
  downAt: number;
  startingAt: number | null;
  upAt: number | null;
}

/** The simulator's backups: the running ones (each node's share and what it has written) and those it ended. */
export interface BackupTruth {
  running: Array<{
    id: number;
    startedAt: number;
    /** When BackupCompleted goes out. */
    endsAt: number;
    rowBytes: number;
    /** `writtenBy`: when the node's share is all written (it writes at a steady speed from `startedAt`). */
    nodes: Array<{ nodeId: number; shareBytes: number; bytes: number; records: number; writtenBy: number }>;
  }>;
  ended: Array<{ id: number; at: number; bytes: number; records: number }>;
}

/** What the simulator's model said at the frame (ground truth). */
export interface Truth {
  /** Data nodes' status and last completed start phase. */
  nodes: Array<{ nodeId: number; status: string; startPhase: number }>;
  /** Management servers that answer. */
  mgmdsUp: number;
  /** When the rolling-restart round under way ends by the simulator's own timings (wall ms), when it can be told. */
  roundFinish?: number | null;
  /** Every fall of a data node since the stack started (absent in frames made by hand). */
  falls?: Fall[];
  backups?: BackupTruth;
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
  /** `/api/incidents` read just before the page and just after (absent in frames made by hand). */
  incidents?: { before: Incident[]; after: Incident[] };
  /** The ETA read under chart windows in turn in the same frame (the first window again last: the ETA may move by itself). */
  etaByWindow?: Array<{ window: string; eta: DomView['eta'] }>;
  /**
   * The backup states the engine pushed since the frame before (absent in frames made by hand): the page may show
   * any of them, as a push reaches it some milliseconds after, and one can come and go between two reads.
   */
  pushedBackups?: Array<BackupStatus | null>;
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
