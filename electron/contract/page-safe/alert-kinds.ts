import type { Alert, AlertKind } from '../schemas/events.js';

/** The use (%) at which each memory alert is raised: the engine's levels, and the page's "was ≥ 80 %, now 74 %". */
export const MEMORY_RAISE_AT = { 'memory-high': 80, 'memory-critical': 90 } as const satisfies Partial<Record<AlertKind, number>>;

/** What one alert kind means, for a row or notification that folds many alerts of that kind into one. */
export const ALERT_KIND_LABEL: Record<AlertKind, string> = {
  'node-down': 'data node down without a requested stop',
  'node-group-degraded': 'node group degraded',
  'node-group-offline': 'node group offline',
  arbitration: 'arbitration problem',
  'memory-high': `memory ≥ ${MEMORY_RAISE_AT['memory-high']} % used`,
  'memory-critical': `memory ≥ ${MEMORY_RAISE_AT['memory-critical']} % used`,
  'checkpoint-stall': 'checkpoint stalled',
  'mgmd-lost': 'management server lost',
  'mgmd-down': 'another management server down',
  'mgmd-flapping': 'management server flapping',
  'connection-refused': 'management server refuses this session',
  'event-stream-lost': 'event stream lost',
  'throughput-collapse': 'cluster throughput collapsed',
  'cert-expiring': 'TLS certificate expiring',
  'log-fill-high': 'redo or undo log ≥ 80 % full',
  'log-fill-critical': 'redo or undo log ≥ 90 % full',
  'fill-soon': 'redo, undo log or data memory full within 10 min at this rate',
  'transporter-overload': 'transporter overloaded or slowed down',
  'restart-slow': 'restart much longer than usual',
  'restart-failed': 'restart failed',
  'backup-slow': 'backup much slower than the last',
};

/** "3, 4, 7, …" : node ids ascending, the first `max` of them, so a 141-node fold stays one line. */
export function listNodeIds(ids: Iterable<number>, max = 12): string {
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  return sorted.length <= max ? sorted.join(', ') : `${sorted.slice(0, max).join(', ')}, …`;
}

const SEVERITY_RANK: Record<Alert['severity'], number> = { critical: 0, warning: 1 };

/**
 * The one order of alerts that are on, for every place that leads with one (the banner, a notification): the most
 * severe first, then the newest; an alert raised while older ones are shown takes its place by that rule.
 */
export function byUrgency(a: Pick<Alert, 'severity' | 'at'>, b: Pick<Alert, 'severity' | 'at'>): number {
  return SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] || b.at - a.at;
}

/** The words of the critical alerts still on: what holds a rolling restart's next step back, hosted or from the CLI. */
export function activeCriticalAlerts(alerts: ReadonlyArray<Pick<Alert, 'severity' | 'resolvedAt' | 'message'>>): string[] {
  return alerts.filter((a) => a.severity === 'critical' && a.resolvedAt === null).map((a) => a.message);
}
