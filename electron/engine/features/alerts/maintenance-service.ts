import type { EngineHandlers } from '../../../contract/page-safe/api.js';
import { AlertKindSchema } from '../../../contract/schemas/events.js';
import { DEFAULT_MAINTENANCE_MS, type MaintenanceWindow } from '../../../contract/schemas/maintenance.js';
import type { MaintenanceInput } from '../../cluster/rooms/maintenance-room.js';
import { MaintenanceError } from '../../cluster/rooms/maintenance-room.js';
import type { ClusterEntry, EngineCore } from '../../core/engine-core.js';
import { EngineRequestError } from '../../core/engine-error.js';

type MaintenanceHandlers = Pick<EngineHandlers, 'startMaintenance' | 'stopMaintenance' | 'extendMaintenance' | 'listMaintenance' | 'getAlertHistory'>;

/**
 * Maintenance windows and the alert history. Opening, extending and stopping a window are tracker inputs stamped
 * now, checked before they are fed, so a recording only holds marks that applied (as run marks). Who may ask is
 * the transport's business (serve: --allow-changes); a window that is not told otherwise lets critical alerts through.
 */
export function maintenanceHandlers(engine: EngineCore): MaintenanceHandlers {
  let nextId = 1;

  const mark = (entry: ClusterEntry, input: MaintenanceInput): MaintenanceWindow => {
    if (engine.host === 'replay') throw new EngineRequestError('UNSUPPORTED', 'a replay cannot open or stop maintenance windows: it plays back what was recorded');
    const problem = entry.tracker.maintenance.check(input);
    if (problem) throw problem;
    engine.feed(entry.id, input);
    const window = entry.tracker.maintenance.get(input.windowId);
    if (!window) throw new MaintenanceError('NOT_FOUND', `maintenance window ${input.windowId} was not kept`);
    return window;
  };

  const freshId = (): string => {
    let id = `mw-${nextId++}`;
    while (engine.entries().some((e) => e.tracker.maintenance.get(id))) id = `mw-${nextId++}`;
    return id;
  };

  const holding = (clusterId: string | undefined, windowId: string): ClusterEntry => {
    const entry = clusterId !== undefined ? engine.cluster(clusterId) : engine.entries().find((e) => e.tracker.maintenance.get(windowId));
    if (!entry) throw new MaintenanceError('NOT_FOUND', `no maintenance window with id ${JSON.stringify(windowId)}`);
    return entry;
  };

  // The desktop app has one user; a serve client that gives no name is "unnamed" (the window says so).
  const who = (by: string | undefined): string | undefined => by ?? (engine.host === 'desktop' ? 'the desktop app' : undefined);

  return {
    startMaintenance: async ({ clusterId, reason, silence, durationMs, silenceCritical, by }) => {
      const t = Date.now();
      const opener = who(by);
      return mark(engine.cluster(clusterId), {
        kind: 'maintenance',
        t,
        op: 'start',
        windowId: freshId(),
        reason: reason?.trim() || 'maintenance',
        silence: silence ?? [...AlertKindSchema.options],
        until: t + (durationMs ?? DEFAULT_MAINTENANCE_MS),
        silenceCritical: silenceCritical === true,
        ...(opener === undefined ? {} : { by: opener }),
      });
    },
    extendMaintenance: async ({ clusterId, windowId, durationMs, by }) => {
      const entry = holding(clusterId, windowId);
      const t = Date.now();
      const until = Math.max(t, entry.tracker.maintenance.get(windowId)?.until ?? t) + durationMs;
      const extender = who(by);
      return mark(entry, { kind: 'maintenance', t, op: 'extend', windowId, until, ...(extender === undefined ? {} : { by: extender }) });
    },
    stopMaintenance: async ({ clusterId, windowId, by }) => {
      const closer = who(by);
      return mark(holding(clusterId, windowId), { kind: 'maintenance', t: Date.now(), op: 'stop', windowId, ...(closer === undefined ? {} : { by: closer }) });
    },
    listMaintenance: async ({ clusterId }) => engine.cluster(clusterId).tracker.maintenance.list(),
    getAlertHistory: async ({ clusterId }) => engine.cluster(clusterId).tracker.alertHistory(),
  };
}
