import { useEffect, useState } from 'react';
import type { NdbinfoNode } from '../contract.js';
import { nextTask } from '../store/next-task.js';
import { useApp, useAppContext } from '../store/use-app.js';
import { ThreadGrid } from '../view-model/inside/thread-grid.js';

/**
 * 8 nodes × 20 threads over 15 minutes is ~200 KB of answer: parsing and checking it is one task and loading it into
 * the grid the next, so neither is one long task on a mount or a window switch.
 */
const NODES_PER_ANSWER = 8;

function newestSecond(nodes: ReadonlyMap<number, NdbinfoNode>): number | null {
  let at: number | null = null;
  for (const n of nodes.values()) if (n.threads) at = Math.max(at ?? 0, n.threads.at);
  return at === null ? null : Math.floor(at / 1000);
}

/**
 * The heatmap's cells for the window on `maxColumns` columns: the engine's series asked once (again when the window,
 * width or cluster changes, or after a pause), then extended by the ndbinfo figures every push brings. `version`
 * moves whenever a cell changed, so the canvas knows to draw again.
 */
export function useThreadGrid(windowMs: number, maxColumns: number, enabled: boolean): { grid: ThreadGrid | null; version: number } {
  const { api, store } = useAppContext();
  const clusterId = useApp((s) => s.shown.clusterId);
  const paused = useApp((s) => s.ui.paused);
  const [state, setState] = useState<{ grid: ThreadGrid | null; version: number }>({ grid: null, version: 0 });
  useEffect(() => {
    if (!enabled || clusterId === null || maxColumns < 1) return;
    let current = true;
    const nodes = store.getState().shown.ndbinfoNodes;
    const end = newestSecond(nodes) ?? Math.floor(Date.now() / 1000);
    const grid = new ThreadGrid(windowMs, maxColumns, end);
    for (const n of nodes.values()) grid.append(n);
    const bump = (): void => setState((s) => ({ grid, version: s.version + 1 }));
    const unsubscribe = store.subscribe((s, prev) => {
      const now = s.shown.ndbinfoNodes;
      const before = prev.shown.ndbinfoNodes;
      if (now === before) return;
      let changed = false;
      for (const [id, n] of now) if (before.get(id) !== n) changed = grid.append(n) || changed;
      if (changed) bump();
    });
    const query = { clusterId, ...ThreadGrid.query(windowMs, maxColumns, end) };
    // A few nodes an answer: serve sends a WebSocket client at most 2 MiB at once, and each part is drawn as it comes.
    const ids = [...nodes.keys()];
    const parts = ids.length === 0 ? [undefined] : Array.from({ length: Math.ceil(ids.length / NODES_PER_ANSWER) }, (_, i) => ids.slice(i * NODES_PER_ANSWER, (i + 1) * NODES_PER_ANSWER));
    void (async () => {
      for (const nodeIds of parts) {
        const series = await api.getThreadSeries(nodeIds ? { ...query, nodeIds } : query);
        await nextTask();
        if (!current) return;
        grid.load(series);
        bump();
      }
    })().catch((err: unknown) => store.setUi({ error: `threads: ${err instanceof Error ? err.message : String(err)}` }));
    return () => {
      current = false;
      unsubscribe();
    };
  }, [api, store, clusterId, windowMs, maxColumns, enabled, paused]);
  return state;
}
