import type { ClusterPort } from '../../engine/features/rolling/index.js';
import { criticalAlertsOver, type RunsEndpoint } from '../../serve/runs-client.js';

/**
 * The check "no critical alert is active" for the CLI, which has no alert book of its own: the critical alerts the
 * watching ndbtop (`--mark-url`, the one its runs are marked on) has active now, read with every observation. An
 * ndbtop that does not answer leaves the check undecided, which holds the next step back like any failed check.
 */
export function withWatchedAlerts(port: ClusterPort, endpoint: RunsEndpoint): ClusterPort {
  return {
    async observe() {
      const [obs, alerts] = await Promise.all([
        port.observe(),
        criticalAlertsOver(endpoint).then(
          (texts) => ({ texts, error: null }),
          (err: unknown) => ({ texts: [], error: `${endpoint.url} did not answer (${err instanceof Error ? err.message : String(err)})` }),
        ),
      ]);
      return { ...obs, criticalAlerts: alerts.texts, ...(alerts.error === null ? {} : { alertsUnknown: alerts.error }) };
    },
    restart: (nodeIds, bounds) => port.restart(nodeIds, bounds),
  };
}

/** What the plan says of the alert check, in words. */
export function alertCheck(markUrl: string | undefined): string {
  return markUrl ? `critical alerts read from ${markUrl} before each step` : 'not checked: that needs a watching ndbtop (--mark-url URL of ndbtop serve or record --port)';
}
