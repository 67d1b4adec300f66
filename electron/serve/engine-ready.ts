import type { EngineHost } from '../engine/core/engine-host.js';

/** How long serve waits, at most, for the engine's first picture of its cluster before it listens. */
export const DEFAULT_READY_WITHIN_MS = 3000;

/**
 * Resolves once the engine has something to show for its default cluster (its nodes, or why it has none: a
 * connection error or a refusal, which it resolves with), or after `withinMs` (null: nothing went wrong yet). Serve listens, and so prints its URL, only then: a page opened at once
 * paints the grid from the first snapshot instead of waiting on the first `get status` (which follows the
 * configuration, a bulk read for 255 nodes); a cluster that is slow to answer delays listening only this long.
 */
export function engineReady(engine: Pick<EngineHost, 'handlers' | 'subscribe'>, withinMs = DEFAULT_READY_WITHIN_MS): Promise<string | null> {
  let reason: string | null = null;
  const shows = async (): Promise<boolean> => {
    try {
      const snapshot = await engine.handlers.getSnapshot({});
      if (snapshot.nodes.length > 0) return true;
      reason = snapshot.connection.lastError;
      return reason !== null;
    } catch {
      // No cluster to show (or none the engine can describe): nothing to wait for.
      return true;
    }
  };
  return new Promise((resolve) => {
    let done = false;
    let checking = false;
    let again = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      queueMicrotask(off);
      resolve(reason);
    };
    const timer = setTimeout(finish, Math.max(0, withinMs));
    // Every push may be the one that brought the nodes; checks never overlap, and one asked for meanwhile runs after.
    const check = (): void => {
      if (done) return;
      if (checking) return void (again = true);
      checking = true;
      void shows().then((yes) => {
        checking = false;
        if (yes) return finish();
        if (again) {
          again = false;
          check();
        }
      });
    };
    const off = engine.subscribe(check);
    check();
  });
}
