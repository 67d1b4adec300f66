import type { Alert } from '../../../contract/schemas/events.js';

const ALERTS_KEPT = 1000;

function words(alert: Alert): Pick<Alert, 'message' | 'level' | 'clusterWide'> {
  return { message: alert.message, ...(alert.level ? { level: alert.level } : {}), ...(alert.clusterWide ? { clusterWide: alert.clusterWide } : {}) };
}

/** The alerts raised while a cluster was watched, with their latest words and end: what a run's report lists. */
export class RunAlerts {
  private readonly raised: Alert[] = [];

  /** An alert raised, or one of a run's alerts back on (the same id: kept once, on again). */
  onAlert(alert: Alert): void {
    const kept = this.raised.find((a) => a.id === alert.id);
    if (kept) {
      kept.resolvedAt = null;
      return;
    }
    this.raised.push({ ...alert });
    if (this.raised.length > ALERTS_KEPT) this.raised.splice(0, this.raised.length - ALERTS_KEPT);
  }

  /** An alert's condition is over: runs that end later must not count it as active through them. */
  onResolved(alert: Alert): void {
    const kept = this.raised.find((a) => a.id === alert.id);
    if (kept) Object.assign(kept, words(alert), { resolvedAt: alert.resolvedAt });
  }

  /** An alert's words followed its figure (a level's peak and now): the report says what the strip says. */
  onRevised(alert: Alert): void {
    const kept = this.raised.find((a) => a.id === alert.id);
    if (kept) Object.assign(kept, words(alert));
  }

  /** Alerts raised in [from, to]: what changed then. */
  raisedDuring(from: number, to: number): Alert[] {
    return this.raised.filter((a) => a.at >= from && a.at <= to);
  }

  /** Alerts active at any moment of [from, to]: raised in it, or raised before and not over when it began. */
  activeDuring(from: number, to: number): Alert[] {
    return this.raised.filter((a) => a.at <= to && (a.resolvedAt === null || a.resolvedAt >= from));
  }
}
