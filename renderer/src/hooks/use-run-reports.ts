import { useEffect, useState } from 'react';
import type { RunFigure, RunReports } from '../contract.js';
import { useApp, useAppContext } from '../store/use-app.js';

/** While a shown run is running its report is asked again this often. */
const REFRESH_MS = 2000;

/**
 * Reports of `runIds` (their comparison when two or more, at `align`, or where the engine aligns them by default
 * when null), asked again when the runs change and, while one of
 * them is running, every couple of seconds. A stale answer is dropped.
 */
export function useRunReports(runIds: readonly string[], figure: RunFigure, align: string | null): RunReports | null {
  const { api, store } = useAppContext();
  const clusterId = useApp((s) => s.shown.clusterId);
  const runs = useApp((s) => s.shown.runs);
  const anyRunning = runs.some((r) => r.end === null && runIds.includes(r.id));
  const tick = useApp((s) => (anyRunning ? Math.floor(s.shown.historyUntil / REFRESH_MS) : 0));
  const [reports, setReports] = useState<RunReports | null>(null);
  const key = runIds.join(',');
  const runsKey = runs.map((r) => `${r.id}:${r.phases.length}:${r.end ?? ''}`).join(',');
  useEffect(() => {
    if (clusterId === null || key === '') {
      setReports(null);
      return;
    }
    let current = true;
    api
      .getRunReports({ clusterId, runIds: key.split(','), figure, ...(align === null ? {} : { align }) })
      .then((r) => current && setReports(r))
      .catch((err: unknown) => store.setUi({ error: `runs: ${err instanceof Error ? err.message : String(err)}` }));
    return () => {
      current = false;
    };
  }, [api, store, clusterId, key, figure, align, runsKey, tick]);
  return reports;
}
