import { z } from 'zod';
import { IncidentCauseKindSchema } from './incidents.js';
import { AlertKindSchema, AlertSchema } from './events.js';
import { MaintenanceEventSchema } from './maintenance.js';

const Total = z.number().nonnegative();

/**
 * Everything a data node's TransReportCounters and OperationReportCounters said since ndbtop started watching:
 * the per-instance deltas (spec §7.3) added up. Monotonic across node restarts, because each report is a delta;
 * only a restart of ndbtop starts them again from zero (what Prometheus counters expect).
 */
export const NodeCountersSchema = z.object({
  nodeId: z.number().int().min(1).max(255),
  transactions: Total,
  commits: Total,
  reads: Total,
  simpleReads: Total,
  writes: Total,
  attrinfo: Total,
  aborts: Total,
  scans: Total,
  rangeScans: Total,
  /** LQH operations (OperationReportCounters `ops`). */
  operations: Total,
  /** TransReportCounters plus OperationReportCounters records received from the node. */
  reports: Total,
  /** Latest report time, so a reader can tell a node that stopped reporting. null before the first. */
  lastReportAt: z.number().int().nonnegative().nullable(),
});

export const AlertCountSchema = z.object({ kind: AlertKindSchema, severity: AlertSchema.shape.severity, raised: Total });

export const ClusterCountersSchema = z.object({
  clusterId: z.string(),
  /** Data nodes that have reported at least once. */
  nodes: z.array(NodeCountersSchema),
  /** Alerts raised since ndbtop started, every kind and severity (zeros included, so a first one is an increase). */
  alerts: z.array(AlertCountSchema),
  /** Maintenance windows opened, extended, closed and expired since ndbtop started. */
  maintenance: z.record(MaintenanceEventSchema.shape.what, Total),
  /** Incidents since ndbtop started, per cause kind (every kind, zeros included); absent from engines before incidents. */
  incidents: z.record(IncidentCauseKindSchema, Total).optional(),
});

export type NodeCounters = z.infer<typeof NodeCountersSchema>;
export type AlertCount = z.infer<typeof AlertCountSchema>;
export type ClusterCounters = z.infer<typeof ClusterCountersSchema>;
