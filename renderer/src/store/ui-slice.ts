import type { OperatorAction, Run, Severity } from '../contract.js';
import type { DensitySetting } from '../view-model/nodes/grid-rows.js';

export const VIEWS = ['nodes', 'restarts', 'throughput', 'events', 'settings', 'config', 'tls', 'runs', 'threads', 'io', 'incidents', 'backups'] as const;
export type ViewName = (typeof VIEWS)[number];

/** Views past the tenth have a letter key (the number keys stay with the first ten). */
export const LETTER_KEYS: Partial<Record<ViewName, string>> = { incidents: 'i', backups: 'b' };

/** The key of the view at `index`: 1–9, then 0 for the tenth, then the later views' letters. */
export const viewKey = (index: number): string => LETTER_KEYS[VIEWS[index] ?? 'nodes'] ?? String((index + 1) % 10);

export const WINDOWS = { '1m': 60_000, '5m': 300_000, '15m': 900_000, '1h': 3_600_000 } as const;
export type WindowName = keyof typeof WINDOWS;

export interface EventFilter {
  categories: readonly string[];
  severities: readonly Severity[];
  nodeId: number | null;
  text: string;
}

export const NO_FILTER: EventFilter = { categories: [], severities: [], nodeId: null, text: '' };

export interface PhaseMark {
  at: number;
  label: string;
}

/** 'system' follows the browser's colour scheme; the choice belongs to this screen (each viewer of serve mode has its own). */
export type Theme = 'dark' | 'light' | 'system';
export const THEMES: readonly Theme[] = ['system', 'dark', 'light'];

/** The page's own link to the engine (serve mode's WebSocket); 'lost' from a close or a silence until it is back. */
export type Transport = 'connecting' | 'open' | 'lost';

/** A panel over the page: the maintenance windows, or the alert history. */
export type Panel = 'maintenance' | 'alert-history';

export interface UiState {
  view: ViewName;
  window: WindowName;
  paused: boolean;
  pausedAt: number | null;
  eventFilter: EventFilter;
  /** Follow mode: newest at the bottom and the log scrolls with it; otherwise newest first. */
  follow: boolean;
  theme: Theme;
  helpOpen: boolean;
  fullscreen: boolean;
  /** Node grid: cards, small tiles, or tiles only when the data nodes would not fit as cards. */
  density: DensitySetting;
  /** The node whose full card (and actions) the side panel shows, opened from a compact tile. */
  selectedNodeId: number | null;
  phaseMarks: readonly PhaseMark[];
  panel: Panel | null;
  /** The operator action waiting for confirmation in the dialog. */
  pendingAction: OperatorAction | null;
  /** Set when the contract or the transport reports a problem the operator should see. */
  error: string | null;
  transport: Transport;
  /** Runs view: runs of recordings the user added, and the runs ticked for comparison (the first is A). */
  importedRuns: readonly Run[];
  comparedRunIds: readonly string[];
}

export const INITIAL_UI: UiState = {
  view: 'nodes',
  window: '5m',
  paused: false,
  pausedAt: null,
  eventFilter: NO_FILTER,
  follow: false,
  theme: 'system',
  helpOpen: false,
  fullscreen: false,
  density: 'auto',
  selectedNodeId: null,
  phaseMarks: [],
  panel: null,
  pendingAction: null,
  error: null,
  transport: 'connecting',
  importedRuns: [],
  comparedRunIds: [],
};
