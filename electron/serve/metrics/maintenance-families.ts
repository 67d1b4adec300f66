import { MaintenanceEventSchema } from '../../contract/schemas/maintenance.js';
import type { FamilyMaker, FamilyRecorder } from './family.js';

const EVENTS = MaintenanceEventSchema.shape.what.options;

/**
 * Maintenance windows, so a silence shows where alerting looks: how many are open, whether one lets no critical
 * alert through (alert on it), when the last one ends, and every window opened, extended, closed or expired.
 */
export function maintenanceFamilies({ gauge, counter }: FamilyMaker): FamilyRecorder {
  const open = gauge('ndbtop_maintenance_windows_open', 'Maintenance windows open now (each silences the alert kinds it names)', ['cluster']);
  const critical = gauge('ndbtop_maintenance_critical_silenced', '1 while an open maintenance window silences critical alerts too, else 0', ['cluster']);
  const ends = gauge('ndbtop_maintenance_end_timestamp_seconds', 'When the last open maintenance window ends by itself, Unix time (absent while none is open)', ['cluster']);
  const events = counter('ndbtop_maintenance_window_events_total', 'Maintenance windows opened, extended, closed (stopped) and expired since ndbtop started', ['cluster', 'event']);

  return ({ cluster, snapshot: s, counters }) => {
    // Open as the engine silences: until a tick closes it (within a second of its end).
    const live = (s.maintenance ?? []).filter((w) => w.end === null);
    open.set({ cluster }, live.length);
    critical.set({ cluster }, live.some((w) => w.silenceCritical) ? 1 : 0);
    const until = live.map((w) => w.until).filter((u) => u !== null);
    if (until.length > 0) ends.set({ cluster }, Math.max(...until) / 1000);
    for (const event of EVENTS) events.inc({ cluster, event }, counters.maintenance[event]);
  };
}
