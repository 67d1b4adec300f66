import { createStore, type StoreApi } from 'zustand/vanilla';
import type { AppInfo, ClusterSnapshot, ClusterSummary, EventView, HistorySeries, PushMessage } from '../contract.js';
import { EMPTY_CLUSTER, appendEvents, applyDelta, applySnapshot, upsertAlert, type ClusterData } from './cluster-data.js';
import { HistoryRing } from './history-ring.js';
import { INITIAL_UI, type UiState } from './ui-slice.js';

/** Sparklines show the last two minutes; the charts ask the engine for longer windows. */
export const SPARKLINE_SECONDS = 120;
export const SPARKLINE_METRIC = 'transactions';
const sparklineKey = /^node\.\d+\.transactions$/;
/** Cluster totals the headline compares with the last minute. */
const headlineKey = /^cluster\.(transactions|reads|writes|aborts)$/;

export interface AppState {
  /** Always current, even while paused. */
  live: ClusterData;
  /** What the screen shows: the same object as `live` unless paused. */
  shown: ClusterData;
  ui: UiState;
  appInfo: AppInfo | null;
  clusters: readonly ClusterSummary[];
  /** Mutated in place; `historyVersion` in the cluster data says when. */
  readonly ring: HistoryRing;
}

export type PushOutcome = 'applied' | 'ignored' | 'gap';

export interface AppStore extends StoreApi<AppState> {
  receive(message: PushMessage): PushOutcome;
  loadSnapshot(snapshot: ClusterSnapshot, version?: number | null): void;
  loadEvents(events: readonly EventView[]): void;
  loadHistory(history: HistorySeries): void;
  setPaused(paused: boolean, now?: number): void;
  setUi(patch: Partial<UiState>): void;
  /** Forget the cluster shown, before switching to another one. */
  reset(): void;
}

export function createAppStore(): AppStore {
  const store = createStore<AppState>(() => ({
    live: EMPTY_CLUSTER,
    shown: EMPTY_CLUSTER,
    ui: INITIAL_UI,
    appInfo: null,
    clusters: [],
    ring: new HistoryRing(SPARKLINE_SECONDS * 2, (key) => sparklineKey.test(key) || headlineKey.test(key)),
  }));

  /** Every change of cluster data goes through here, so pausing is decided in one place. */
  const commit = (live: ClusterData): void => {
    const { ui } = store.getState();
    store.setState(ui.paused ? { live } : { live, shown: live });
  };

  const receive = (message: PushMessage): PushOutcome => {
    const { live, ring } = store.getState();
    switch (message.type) {
      case 'snapshot':
        // Pushes for the other clusters the engine watches are not what this window shows.
        if (live.clusterId !== null && message.snapshot.clusterId !== live.clusterId) return 'ignored';
        commit(applySnapshot(live, message.snapshot, message.version));
        return 'applied';
      case 'delta': {
        const outcome = applyDelta(live, message.delta);
        if (outcome.kind === 'applied') commit(outcome.data);
        return outcome.kind;
      }
      case 'events':
        if (message.clusterId !== live.clusterId) return 'ignored';
        commit({ ...live, events: appendEvents(live.events, message.events) });
        return 'applied';
      case 'alert':
        if (message.clusterId !== live.clusterId) return 'ignored';
        commit({ ...live, alerts: upsertAlert(live.alerts, message.alert) });
        return 'applied';
      case 'history': {
        if (message.clusterId !== live.clusterId || message.points.length === 0) return 'ignored';
        for (const point of message.points) ring.push(point);
        const until = Math.max(live.historyUntil, ...message.points.map((p) => p.at));
        commit({ ...live, historyVersion: live.historyVersion + 1, historyUntil: until });
        return 'applied';
      }
      case 'clusters':
        store.setState({ clusters: message.clusters });
        return 'applied';
    }
  };

  return Object.assign(store, {
    receive,
    loadSnapshot(snapshot: ClusterSnapshot, version: number | null = null) {
      commit(applySnapshot(store.getState().live, snapshot, version));
    },
    loadEvents(events: readonly EventView[]) {
      const { live } = store.getState();
      commit({ ...live, events: appendEvents(live.events, events) });
    },
    loadHistory(history: HistorySeries) {
      const { live, ring } = store.getState();
      ring.load(history);
      const last = history.at[history.at.length - 1] ?? live.historyUntil;
      commit({ ...live, historyVersion: live.historyVersion + 1, historyUntil: Math.max(live.historyUntil, last) });
    },
    setPaused(paused: boolean, now = Date.now()) {
      const { ui, live } = store.getState();
      if (ui.paused === paused) return;
      // Resuming shows everything collected meanwhile in one step.
      store.setState({ ui: { ...ui, paused, pausedAt: paused ? now : null }, ...(paused ? {} : { shown: live }) });
    },
    reset() {
      store.setState({ live: EMPTY_CLUSTER, shown: EMPTY_CLUSTER });
    },
    setUi(patch: Partial<UiState>) {
      store.setState((s) => ({ ui: { ...s.ui, ...patch } }));
    },
  });
}
