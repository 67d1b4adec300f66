import { useEffect, useState } from 'react';
import type { HistorySeries, Metric } from '../contract.js';
import { useApp, useAppContext } from '../store/use-app.js';
import { WINDOWS } from '../store/ui-slice.js';

/**
 * History for a chart, decimated by the engine to the pixels there are. Asks again whenever a live point arrives
 * (a stale answer is dropped), and not while paused, so the chart freezes with the rest of the screen.
 */
export function useHistoryQuery(metrics: readonly Metric[], maxPoints: number, nodeIds?: readonly number[]): HistorySeries | null {
  const { api, store } = useAppContext();
  const clusterId = useApp((s) => s.shown.clusterId);
  const version = useApp((s) => s.shown.historyVersion);
  const until = useApp((s) => s.shown.historyUntil);
  const windowMs = useApp((s) => WINDOWS[s.ui.window]);
  const [series, setSeries] = useState<HistorySeries | null>(null);
  const metricsKey = metrics.join(',');
  const nodesKey = nodeIds?.join(',') ?? '';

  useEffect(() => {
    if (clusterId === null || maxPoints < 2) return;
    let current = true;
    const to = until > 0 ? until : Date.now();
    api
      .getHistory({
        clusterId,
        fromMs: Math.max(0, to - windowMs),
        toMs: to,
        metrics: metricsKey.split(',') as Metric[],
        ...(nodesKey ? { nodeIds: nodesKey.split(',').map(Number) } : {}),
        maxPoints: Math.min(100_000, Math.round(maxPoints)),
      })
      .then((result) => current && setSeries(result))
      .catch((err: unknown) => store.setUi({ error: `history: ${err instanceof Error ? err.message : String(err)}` }));
    return () => {
      current = false;
    };
  }, [api, store, clusterId, version, until, windowMs, metricsKey, nodesKey, maxPoints]);

  return series;
}
