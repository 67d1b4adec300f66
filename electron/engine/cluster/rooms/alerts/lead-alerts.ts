import type { FillTrend } from '../../../../contract/schemas/fill-trend.js';
import { FILL_SOON_SEC, fullInWords, trendRateWords } from '../../../../contract/page-safe/level-words.js';
import { HOLD_MS } from '../../../features/alerts/memory-levels.js';
import type { AlertRoom } from './alert-room.js';

/** Over once the fill would take twice the warning's lead time (or is not filling) for a hold time: no flapping. */
const CLEAR_SEC = 2 * FILL_SOON_SEC;

/**
 * `fill-soon`: a fill (a data node's redo or undo log, DataMemory) that, at the rate its last readings
 * climb (`FillTrends`), is full within 10 minutes: a warning before any mark is reached, saying the figure now and
 * the lead time ("Node 3: redo log 62 % full, full in ~7 min at this rate (+5.4 points/min)").
 */
export class LeadAlerts {
  /** Per alert key: since when the fill has been out of the warning's reach. */
  private readonly calmSince = new Map<string, number>();
  /** Per alert key: the fill at the reading before. */
  private readonly last = new Map<string, number>();

  constructor(
    private readonly alerts: AlertRoom,
    private readonly holdMs = HOLD_MS,
  ) {}

  judge(nodeId: number, subject: string, percent: number, trend: FillTrend | null | undefined, at: number): void {
    const key = `fill-soon:${nodeId}:${subject}`;
    // Raised only while it still climbs: a single step (a load starting, memory settling at its new level) leaves a
    // line that points up for a minute after the fill went flat, and is not a fill on its way to full.
    const before = this.last.get(key);
    this.last.set(key, percent);
    const climbing = before !== undefined && percent > before;
    const soon = climbing && trend !== null && trend !== undefined && trend.fullInSec !== null && trend.fullInSec <= FILL_SOON_SEC;
    const calm = !trend || trend.fullInSec === null || trend.fullInSec > CLEAR_SEC;
    if (soon) {
      this.calmSince.delete(key);
      const message = `Node ${nodeId}: ${subject} ${Math.round(percent)} % full, ${fullInWords(trend)} (${trendRateWords(trend)})`;
      this.alerts.raise(key, 'fill-soon', 'warning', at, nodeId, message);
      this.alerts.revise(key, message);
      return;
    }
    if (!this.alerts.isActive(key)) return;
    if (!calm) {
      this.calmSince.delete(key);
      this.alerts.revise(key, `Node ${nodeId}: ${subject} ${Math.round(percent)} % full, ${fullInWords(trend)}`);
      return;
    }
    const since = this.calmSince.get(key) ?? at;
    this.calmSince.set(key, since);
    this.alerts.revise(key, `Node ${nodeId}: ${subject} ${Math.round(percent)} % full, ${fullInWords(trend) ?? 'no rate yet'}`);
    if (at - since >= this.holdMs) {
      this.alerts.resolve(key, at);
      this.calmSince.delete(key);
    }
  }
}
