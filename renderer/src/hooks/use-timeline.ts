import { useEffect, useState } from 'react';
import type { Timeline } from '../contract.js';
import { useApp, useAppContext } from '../store/use-app.js';
import { WINDOWS } from '../store/ui-slice.js';

/** The timeline is not pushed; ask for it again after every snapshot change (the store's version), unless paused. */
export function useTimeline(): Timeline | null {
  const { api, store } = useAppContext();
  const clusterId = useApp((s) => s.shown.clusterId);
  const version = useApp((s) => s.shown.version);
  const sampledAt = useApp((s) => s.shown.sampledAt);
  const windowMs = useApp((s) => WINDOWS[s.ui.window]);
  const [timeline, setTimeline] = useState<Timeline | null>(null);
  useEffect(() => {
    if (clusterId === null) return;
    let current = true;
    api
      .getTimeline({ clusterId, fromMs: Math.max(0, (sampledAt ?? Date.now()) - windowMs) })
      .then((t) => current && setTimeline(t))
      .catch((err: unknown) => store.setUi({ error: `timeline: ${err instanceof Error ? err.message : String(err)}` }));
    return () => {
      current = false;
    };
  }, [api, store, clusterId, version, sampledAt, windowMs]);
  return timeline;
}
