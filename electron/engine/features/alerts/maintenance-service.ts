import type { EngineHandlers } from '../../../contract/page-safe/api.js';
import { AlertKindSchema } from '../../../contract/schemas/events.js';
import type { MaintenanceWindow } from '../../../contract/schemas/maintenance.js';
import type { MaintenanceInput } from '../../cluster/rooms/maintenance-room.js';
import { MaintenanceError } from '../../cluster/rooms/maintenance-room.js';
import type { ClusterEntry, EngineCore } from '../../core/engine-core.js';
import { EngineRequestError } from '../../core/engine-error.js';

type MaintenanceHandlers = Pick<EngineHandlers, 'startMaintenance' | 'stopMaintenance' | 'listMaintenance' | 'getAlertHistory'>;

/**
 * Maintenance windows and the alert history. Opening and stopping a window are tracker inputs stamped now, checked
 * before they are fed, so a recording only holds marks that applied (as run marks).
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

  return {
    startMaintenance: async ({ clusterId, reason, silence, durationMs }) => {
      const t = Date.now();
      return mark(engine.cluster(clusterId), {
        kind: 'maintenance',
        t,
        op: 'start',
        windowId: freshId(),
        reason: reason?.trim() || 'maintenance',
        silence: silence ?? [...AlertKindSchema.options],
        until: durationMs === undefined ? null : t + durationMs,
      });
    },
    stopMaintenance: async ({ clusterId, windowId }) => {
      const entry = clusterId !== undefined ? engine.cluster(clusterId) : engine.entries().find((e) => e.tracker.maintenance.get(windowId));
      if (!entry) throw new MaintenanceError('NOT_FOUND', `no maintenance window with id ${JSON.stringify(windowId)}`);
      return mark(entry, { kind: 'maintenance', t: Date.now(), op: 'stop', windowId });
    },
    listMaintenance: async ({ clusterId }) => engine.cluster(clusterId).tracker.maintenance.list(),
    getAlertHistory: async ({ clusterId }) => engine.cluster(clusterId).tracker.alertHistory(),
  };
}
