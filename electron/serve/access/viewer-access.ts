import type { EngineHandlers } from '../../contract/page-safe/api.js';
import type { RequestName } from '../../contract/schemas/channels.js';

/**
 * What each request does to the server, so serve mode can tell a viewer from an operator. Every request must be
 * classified (the type demands it): a new one cannot reach browsers ungated by being forgotten here.
 * - read: anyone admitted may ask.
 * - mark: benchmark run marks (start, phase, stop): state, but of ndbtop's own bookkeeping, not of the cluster
 *   or of what others watch; open to anyone admitted (the token), as `POST /api/runs` is (issue 10).
 * - change: changes what every viewer sees or what the server connects to (clusters, settings, profiles,
 *   acknowledging alerts, opening, extending or closing maintenance windows); refused unless serve runs with
 *   --allow-changes (or --allow-actions).
 * - action: an operator action on the cluster; the engine itself refuses it unless started with --allow-actions.
 */
export const REQUEST_ACCESS: { readonly [K in RequestName]: 'read' | 'mark' | 'change' | 'action' } = {
  getAppInfo: 'read',
  listClusters: 'read',
  addCluster: 'change',
  removeCluster: 'change',
  getSnapshot: 'read',
  getHistory: 'read',
  getTimeline: 'read',
  getThreadSeries: 'read',
  getThreadPoint: 'read',
  getLinks: 'read',
  getEvents: 'read',
  acknowledgeAlert: 'change',
  previewAction: 'read',
  runAction: 'action',
  getSettings: 'read',
  updateSettings: 'change',
  listProfiles: 'read',
  saveProfile: 'change',
  deleteProfile: 'change',
  exportHistory: 'read',
  getClusterConfig: 'read',
  getCounters: 'read',
  startRun: 'mark',
  markPhase: 'mark',
  stopRun: 'mark',
  // Silencing alerts changes what every viewer (and the operator) is told: as acknowledging one does.
  startMaintenance: 'change',
  stopMaintenance: 'change',
  extendMaintenance: 'change',
  listMaintenance: 'read',
  getAlertHistory: 'read',
  getIncidents: 'read',
  listIncidents: 'read',
  getIncident: 'read',
  getRunReports: 'read',
  exportRuns: 'read',
  // Keeps a recording's runs in the server's memory for everyone's comparisons.
  listImportedRuns: 'read',
  getRollingRestart: 'read',
  // Planning changes nothing in the cluster, but the plan is every viewer's to see: an operator's, like the rest.
  planRollingRestart: 'action',
  startRollingRestart: 'action',
  haltRollingRestart: 'action',
  resumeRollingRestart: 'action',
  abortRollingRestart: 'action',
  getBackups: 'read',
};

/** Code of a request a viewer may not make. */
export const FORBIDDEN = 'FORBIDDEN';

class ForbiddenError extends Error {
  readonly code = FORBIDDEN;
}

/**
 * Refuses every `action` request (runAction, the rolling restart's) as FORBIDDEN when the engine has operator
 * actions off: the engine alone decides whether they run (`getAppInfo().actionsEnabled`), but a viewer's refusal
 * must read like every other one, not as an action that was sent and failed.
 */
function gateActions(handlers: EngineHandlers): EngineHandlers {
  const gated = { ...handlers } as Record<RequestName, (request: unknown) => Promise<unknown>>;
  for (const name of Object.keys(REQUEST_ACCESS) as RequestName[]) {
    if (REQUEST_ACCESS[name] !== 'action') continue;
    const handler = handlers[name] as (request: unknown) => Promise<unknown>;
    gated[name] = async (request) => {
      if (!(await handlers.getAppInfo({})).actionsEnabled) {
        throw new ForbiddenError(`"${name}" is an operator action: they are disabled (start ndbtop serve with --allow-actions)`);
      }
      return handler(request);
    };
  }
  return gated as unknown as EngineHandlers;
}

/**
 * The handlers browsers get: `change` requests refused unless `allowChanges`, and `getAppInfo` saying so
 * (`changesEnabled`), so the dashboard hides what it may not do; operator actions refused unless the engine
 * allows them.
 */
export function viewerHandlers(engineHandlers: EngineHandlers, allowChanges: boolean): EngineHandlers {
  const handlers = gateActions(engineHandlers);
  if (allowChanges) return { ...handlers, getAppInfo: async (r) => ({ ...(await handlers.getAppInfo(r)), changesEnabled: true }) };
  const gated = { ...handlers } as Record<RequestName, (request: unknown) => Promise<unknown>>;
  for (const name of Object.keys(REQUEST_ACCESS) as RequestName[]) {
    if (REQUEST_ACCESS[name] !== 'change') continue;
    gated[name] = async () => {
      throw new ForbiddenError(`"${name}" changes the server: viewers may not (start ndbtop serve with --allow-changes)`);
    };
  }
  const result = gated as unknown as EngineHandlers;
  return { ...result, getAppInfo: async (r) => ({ ...(await handlers.getAppInfo(r)), changesEnabled: false }) };
}
