import { useCallback, useEffect } from 'react';
import type { Run } from '../../contract.js';
import { useApp, useAppContext } from '../../store/use-app.js';
import { nextPhaseName, quickRunName } from '../../view-model/runs.js';

/** Window events the keyboard handler sends: it has the store, not the API. */
export const RUN_TOGGLE_EVENT = 'ndbtop:run-toggle';
export const RUN_PHASE_EVENT = 'ndbtop:run-phase';

export interface RunControls {
  running: Run | null;
  start(name?: string, tags?: Record<string, string>): Promise<void>;
  mark(name?: string): Promise<void>;
  stop(): Promise<void>;
}

/** Start, phase and stop of the shown cluster's run; failures go to the nav's error line. */
export function useRunControls(): RunControls {
  const { api, store } = useAppContext();
  const clusterId = useApp((s) => s.live.clusterId);
  const running = useApp((s) => s.live.runs.find((r) => r.end === null) ?? null);
  const guard = useCallback(
    async (what: string, fn: () => Promise<unknown>) => {
      try {
        await fn();
        store.setUi({ error: null });
      } catch (err) {
        store.setUi({ error: `${what}: ${err instanceof Error ? err.message : String(err)}` });
      }
    },
    [store],
  );
  const ref = clusterId === null ? {} : { clusterId };
  return {
    running,
    start: (name, tags) => guard('start run', () => api.startRun({ ...ref, name: name?.trim() || quickRunName(new Date()), tags: tags ?? {} })),
    mark: (name) => guard('mark phase', () => (running ? api.markPhase({ ...ref, runId: running.id, name: name?.trim() || nextPhaseName(running) }) : Promise.reject(new Error('no run is running')))),
    stop: () => guard('stop run', () => (running ? api.stopRun({ ...ref, runId: running.id }) : Promise.reject(new Error('no run is running')))),
  };
}

/** `r` starts a run or stops the running one; `m` marks its next phase. Mounted once, wherever the view is. */
export function RunKeys() {
  const controls = useRunControls();
  useEffect(() => {
    const toggle = () => void (controls.running ? controls.stop() : controls.start());
    const phase = () => void controls.mark();
    window.addEventListener(RUN_TOGGLE_EVENT, toggle);
    window.addEventListener(RUN_PHASE_EVENT, phase);
    return () => {
      window.removeEventListener(RUN_TOGGLE_EVENT, toggle);
      window.removeEventListener(RUN_PHASE_EVENT, phase);
    };
  }, [controls]);
  return null;
}
