import { sameValue } from '../../../contract/page-safe/same-value.js';
import type { Alert, AlertKind } from '../../../contract/schemas/events.js';

/** How many alerts are kept in all (active ones are never dropped). */
const CAPACITY = 500;

function evictionRank(a: Alert): number {
  if (a.acknowledged) return 0;
  return a.severity === 'critical' ? 2 : 1;
}

/**
 * Alerts keyed by the condition that raised them, so a condition raises one alert until it is over. An alert
 * stays visible until it is both over and acknowledged, so nothing flashes by unseen.
 */
export class AlertBook {
  private readonly alerts: Alert[] = [];
  private readonly active = new Map<string, Alert>();
  private nextId = 1;

  constructor(
    private readonly onRaise: (alert: Alert) => void,
    private readonly onResolve: (alert: Alert) => void = () => undefined,
  ) {}

  isActive(key: string): boolean {
    return this.active.has(key);
  }

  /** Returns the new alert's id; null when `key` is already on. */
  raise(key: string, kind: AlertKind, severity: Alert['severity'], at: number, nodeId: number | null, message: string, clusterWide?: Alert['clusterWide'], level?: Alert['level'], incidentId?: string): string | null {
    if (this.active.has(key)) return null;
    const alert: Alert = { id: `a${this.nextId++}`, kind, severity, at, nodeId, message, acknowledged: false, resolvedAt: null, ...(clusterWide ? { clusterWide } : {}), ...(level ? { level } : {}), ...(incidentId ? { incidentId } : {}) };
    this.active.set(key, alert);
    this.alerts.push(alert);
    this.trim();
    this.onRaise({ ...alert });
    return alert.id;
  }

  /**
   * The over alert `id` is on again as `key`, with these words: the same alert, not a new one (it keeps its first
   * time and whether it was acknowledged). Null when it is gone (evicted) or still on.
   */
  reopen(key: string, id: string, message: string, clusterWide?: Alert['clusterWide'], level?: Alert['level'], incidentId?: string): Alert | null {
    const alert = this.alerts.find((a) => a.id === id);
    if (!alert || alert.resolvedAt === null || this.active.has(key)) return null;
    alert.resolvedAt = null;
    alert.message = message;
    if (incidentId) alert.incidentId = incidentId;
    if (clusterWide) alert.clusterWide = clusterWide;
    if (level) alert.level = level;
    this.active.set(key, alert);
    return { ...alert };
  }

  /** Something that happened rather than a state: over as soon as it is raised. */
  occurred(kind: AlertKind, severity: Alert['severity'], at: number, nodeId: number | null, message: string): void {
    const key = `${kind}:occurrence:${this.nextId}`;
    this.raise(key, kind, severity, at, nodeId, message);
    this.resolve(key, at);
  }

  resolve(key: string, at: number): boolean {
    const alert = this.active.get(key);
    if (!alert) return false;
    alert.resolvedAt = at;
    this.active.delete(key);
    this.onResolve({ ...alert });
    return true;
  }

  /**
   * An active alert's words follow what it is about now (a held alert's current value, a node's current status, a
   * cluster-wide alert's nodes). Returns it (a copy) when it is active and its words changed.
   */
  revise(key: string, message: string, clusterWide?: Alert['clusterWide'], level?: Alert['level']): Alert | null {
    const alert = this.active.get(key);
    if (!alert) return null;
    const same = alert.message === message && (!clusterWide || sameValue(alert.clusterWide, clusterWide)) && (!level || sameValue(alert.level, level));
    alert.message = message;
    if (clusterWide) alert.clusterWide = clusterWide;
    if (level) alert.level = level;
    return same ? null : { ...alert };
  }

  acknowledge(id: string): boolean {
    const alert = this.alerts.find((a) => a.id === id);
    if (!alert || alert.acknowledged) return false;
    alert.acknowledged = true;
    return true;
  }

  visible(): Alert[] {
    return this.alerts.filter((a) => !a.acknowledged || a.resolvedAt === null).map((a) => ({ ...a }));
  }

  /**
   * Over capacity, the oldest of the least important resolved alerts goes first: acknowledged ones, then
   * unacknowledged warnings, and an unacknowledged critical one (a lost management server) only when nothing else
   * is left, so a storm of routine alerts cannot push it out before anyone saw it.
   */
  private trim(): void {
    while (this.alerts.length > CAPACITY) {
      let victim = -1;
      for (const [i, a] of this.alerts.entries()) {
        if (a.resolvedAt === null) continue;
        if (victim < 0 || evictionRank(a) < evictionRank(this.alerts[victim] as Alert)) victim = i;
        if (evictionRank(a) === 0) break;
      }
      if (victim < 0) return;
      this.alerts.splice(victim, 1);
    }
  }
}
