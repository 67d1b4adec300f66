import type { NdbtopApi, PushMessage } from '../contract.js';
import { HEADLINE_METRICS } from '../view-model/nodes/headline.js';
import { nextTask } from './next-task.js';
import { SPARKLINE_METRIC, SPARKLINE_SECONDS, type AppStore } from './store.js';

export const INITIAL_EVENTS = 2000;

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Feeds the store from the API: pushes as they come, a full snapshot at start and whenever a delta does not fit
 * (a lost push), then the recent events and the sparklines' history. Returns the unsubscribe function.
 *
 * Everything is applied in a task after the one that received and checked it (`nextTask`), and the three answers of
 * the backfill each in one of their own: React renders a store change in the task that made it, so a message's parse
 * and check, and the render of what it changed (a first grid, 2,000 events, 144 sparklines), are separate short tasks
 * instead of one long one.
 */
export interface StoreSync {
  stop(): void;
  /** Full snapshot and backfill again, e.g. after the transport lost pushes. */
  resync(): Promise<void>;
  selectCluster(clusterId: string): Promise<void>;
}

export function connectStore(store: AppStore, api: NdbtopApi): StoreSync {
  let inFlight: Promise<void> | null = null;
  const report = (err: unknown): void => store.setUi({ error: message(err) });

  const resync = (clusterId?: string): Promise<void> => {
    inFlight ??= (async () => {
      try {
        const snapshot = await api.getSnapshot(clusterId ? { clusterId } : {});
        await nextTask();
        store.loadSnapshot(snapshot, null);
        store.setUi({ error: null });
      } catch (err) {
        report(err);
      } finally {
        inFlight = null;
      }
    })();
    return inFlight;
  };

  const backfill = async (): Promise<void> => {
    const { clusterId, nodes } = store.getState().live;
    if (clusterId === null) return;
    const dataNodeIds = [...nodes.values()].filter((n) => n.type === 'NDB').map((n) => n.nodeId);
    const [events, history, totals] = await Promise.all([
      api.getEvents({ clusterId, limit: INITIAL_EVENTS }),
      api.getHistory({
        clusterId,
        fromMs: Date.now() - SPARKLINE_SECONDS * 1000,
        metrics: [SPARKLINE_METRIC],
        nodeIds: dataNodeIds,
        maxPoints: SPARKLINE_SECONDS * 2,
      }),
      // Cluster totals only (no node ids): the headline's last minute.
      api.getHistory({ clusterId, fromMs: Date.now() - SPARKLINE_SECONDS * 1000, metrics: [...HEADLINE_METRICS], maxPoints: SPARKLINE_SECONDS * 2 }),
    ]);
    await nextTask();
    store.loadEvents(events);
    await nextTask();
    store.loadHistory(history);
    store.loadHistory(totals);
  };

  // Pushes that arrive before their task runs are applied together: one render for all of them.
  const pending: PushMessage[] = [];
  const apply = (): void => {
    for (const push of pending.splice(0)) {
      if (store.receive(push) === 'gap') void resync(store.getState().live.clusterId ?? undefined);
    }
  };
  const off = api.onPush((push) => {
    if (pending.push(push) === 1) void nextTask().then(apply);
  });

  void api.getAppInfo({}).then((appInfo) => store.setState({ appInfo }), report);
  void api.listClusters({}).then((clusters) => store.setState({ clusters }), report);
  void resync().then(backfill).catch(report);

  return {
    stop() {
      off();
      pending.length = 0;
    },
    async resync() {
      await resync(store.getState().live.clusterId ?? undefined);
      await backfill().catch(report);
    },
    async selectCluster(clusterId: string) {
      store.reset();
      await resync(clusterId);
      await backfill().catch(report);
    },
  };
}
