import type { ClusterPort } from '../../engine/features/rolling/index.js';
import { redoFact } from '../../engine/features/rolling/ports/snapshot-facts.js';
import { activeCriticalAlerts } from '../../contract/page-safe/alert-kinds.js';
import type { ClusterSnapshot } from '../../contract/schemas/snapshot.js';
import { getApi, type RunsEndpoint } from '../../serve/runs-client.js';

/**
 * The check "no critical alert is active" for the CLI, which has no alert book of its own: the critical alerts the
 * watching ndbtop (`--mark-url`, the one its runs are marked on) has active now, read with every observation, and
 * the redo log fill that ndbtop reads from ndbinfo (the Redo view's figure). An ndbtop that does not answer leaves
 * both undecided, which holds the next step back like any failed check.
 */
export function withWatchedAlerts(port: ClusterPort, endpoint: RunsEndpoint): ClusterPort {
  return {
    async observe() {
      const [obs, alerts] = await Promise.all([
        port.observe(),
        getApi<Pick<ClusterSnapshot, 'alerts' | 'ndbinfo' | 'ndbinfoNodes'>>(endpoint, 'snapshot').then(
          (snap) => ({ snap, error: null }),
          (err: unknown) => ({ snap: null, error: `${endpoint.url} did not answer (${err instanceof Error ? err.message : String(err)})` }),
        ),
      ]);
      const texts = alerts.snap ? activeCriticalAlerts(alerts.snap.alerts) : [];
      const redo = alerts.snap ? redoFact(alerts.snap) : { known: false as const, why: alerts.error ?? 'no answer' };
      const ndb = obs.ndb ? { ndb: { ...obs.ndb, redo: redo.known ? redo : { known: false as const, why: `${endpoint.url}: ${redo.why}` } } } : {};
      return { ...obs, criticalAlerts: texts, ...ndb, ...(alerts.error === null ? {} : { alertsUnknown: alerts.error }) };
    },
    restart: (nodeIds, bounds) => port.restart(nodeIds, bounds),
  };
}

/** What the plan says of the alert check, in words. */
export function alertCheck(markUrl: string | undefined): string {
  return markUrl ? `critical alerts read from ${markUrl} before each step` : 'not checked: that needs a watching ndbtop (--mark-url URL of ndbtop serve or record --port)';
}
