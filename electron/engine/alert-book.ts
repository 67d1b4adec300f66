import type { Alert, AlertKind } from '../contract/events.js';

/** How many alerts are kept in all (active ones are never dropped). */
const CAPACITY = 500;

/**
 * Alerts keyed by the condition that raised them, so a condition raises one alert until it is over. An alert
 * stays visible until it is both over and acknowledged, so nothing flashes by unseen.
 */
export class AlertBook {
  private readonly alerts: Alert[] = [];
  private readonly active = new Map<string, Alert>();
  private nextId = 1;

  constructor(private readonly onRaise: (alert: Alert) => void) {}

  raise(key: string, kind: AlertKind, severity: Alert['severity'], at: number, nodeId: number | null, message: string): void {
    if (this.active.has(key)) return;
    const alert: Alert = { id: `a${this.nextId++}`, kind, severity, at, nodeId, message, acknowledged: false, resolvedAt: null };
    this.active.set(key, alert);
    this.alerts.push(alert);
    this.trim();
    this.onRaise({ ...alert });
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
    return true;
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

  private trim(): void {
    while (this.alerts.length > CAPACITY) {
      const i = this.alerts.findIndex((a) => a.resolvedAt !== null);
      if (i < 0) return;
      this.alerts.splice(i, 1);
    }
  }
}
