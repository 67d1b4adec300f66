import { useEffect, useState } from 'react';
import type { HistorySeries, Metric } from '../contract.js';
import { useApp, useAppContext } from '../store/use-app.js';
import { WINDOWS } from '../store/ui-slice.js';

/**
 * History for a chart, decimated by the engine to `maxPoints` (min/max pairs). Asks again once the newest sample has
 * moved by one of `steps` parts of the window, a pixel's worth of time for a chart passing its plot's width (every
 * point on a 5-minute chart, every few seconds over an hour: redrawing an unchanged picture is what made long
 * windows janky), a stale answer dropped; not while paused, so the chart freezes with the rest of the screen.
 */
export interface HistoryQueryResult {
  history: HistorySeries | null;
  /** End of the window the answer covers: the newest sample, rounded up to the step. */
  until: number;
  /** Length of the window the answer covers. */
  windowMs: number;
}

export interface HistoryQueryOptions {
  nodeIds?: readonly number[];
  /** How many steps the window is cut into for asking again; `maxPoints` unless given. */
  steps?: number;
}

export function useHistoryQuery(metrics: readonly Metric[], maxPoints: number, { nodeIds, steps = maxPoints }: HistoryQueryOptions = {}): HistoryQueryResult {
  const { api, store } = useAppContext();
  const clusterId = useApp((s) => s.shown.clusterId);
  const windowMs = useApp((s) => WINDOWS[s.ui.window]);
  // Whole milliseconds: the contract's times are integers.
  const stepMs = Math.max(1, Math.round(windowMs / Math.max(2, steps)));
  // A primitive that changes once per step of time, so the selector re-renders this no more often than that.
  const until = useApp((s) => Math.ceil(s.shown.historyUntil / stepMs) * stepMs);
  // The answer with the window it was asked for: a chart moves its axis and its lines together, in one update,
  // instead of moving the axis when the question leaves and the lines when the answer comes.
  const [answer, setAnswer] = useState<HistoryQueryResult>({ history: null, until, windowMs });
  const metricsKey = metrics.join(',');
  const nodesKey = nodeIds?.join(',') ?? '';

  useEffect(() => {
    if (clusterId === null || maxPoints < 2 || steps < 2) return;
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
      .then((history) => current && setAnswer({ history, until: to, windowMs }))
      .catch((err: unknown) => store.setUi({ error: `history: ${err instanceof Error ? err.message : String(err)}` }));
    return () => {
      current = false;
    };
  }, [api, store, clusterId, until, windowMs, metricsKey, nodesKey, maxPoints, steps]);

  return answer.history === null ? { history: null, until, windowMs } : answer;
}
