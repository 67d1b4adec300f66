import type { EngineHandlers } from '../../contract/page-safe/api.js';
import { DEFAULT_FAILOVER } from '../../contract/page-safe/vocabulary.js';
import type { EngineCore } from './engine-core.js';
import { exportHistory } from '../facts/history/history-export.js';

/**
 * The contract's requests about clusters and settings, answered from the core; the services' requests are
 * registered beside these by the composition root (`engine.ts`). Requests arrive validated and defaulted.
 */
export function coreHandlers(engine: EngineCore) {
  const settings = engine.settings;
  return {
    getAppInfo: async () => engine.appInfo,
    listClusters: async () => engine.summaries(),
    removeCluster: async ({ clusterId }) => ({ removed: engine.removeCluster(clusterId) }),
    getSnapshot: async ({ clusterId }) => engine.cluster(clusterId).tracker.snapshot(),
    getClusterConfig: async ({ clusterId }) => engine.cluster(clusterId).tracker.configView(),
    getCounters: async ({ clusterId }) => engine.cluster(clusterId).tracker.counters(),
    getHistory: async (query) => engine.cluster(query.clusterId).tracker.history.query(query, { shown: true }),
    getThreadSeries: async ({ clusterId, ...query }) => engine.cluster(clusterId).tracker.threadSeries.series(query),
    getThreadPoint: async ({ clusterId, ...query }) => engine.cluster(clusterId).tracker.threadSeries.point(query),
    getLinks: async ({ clusterId, nodeIds }) => engine.cluster(clusterId).tracker.links(nodeIds),
    getTimeline: async ({ clusterId, fromMs }) => engine.cluster(clusterId).tracker.timelineView(fromMs),
    getEvents: async ({ clusterId, beforeSeq, limit }) => engine.cluster(clusterId).tracker.events(beforeSeq, limit),
    acknowledgeAlert: async ({ clusterId, alertId }) => {
      const entry = engine.cluster(clusterId);
      const open = entry.tracker.snapshot().alerts.some((a) => a.id === alertId && !a.acknowledged);
      if (open) engine.feed(entry.id, { kind: 'ack', t: Date.now(), alertId });
      return { acknowledged: open };
    },
    getSettings: async () => settings.get(),
    updateSettings: async (patch) => {
      const next = settings.update(patch);
      for (const e of engine.entries()) {
        e.source?.setPollInterval(next.pollIntervalMs);
        e.source?.setFailover(next.failover ?? DEFAULT_FAILOVER);
        e.tracker.setHistorySeconds(next.historySeconds);
      }
      return next;
    },
    exportHistory: async ({ clusterId, format, fromMs, toMs, marks }) => {
      const { tracker, id } = engine.cluster(clusterId);
      return exportHistory(tracker.history, { clusterId: id, name: tracker.name, exportedAt: Date.now() }, format, { fromMs, toMs, marks }, tracker.maintenance.list(), tracker.snapshot());
    },
  } satisfies Partial<EngineHandlers>;
}
