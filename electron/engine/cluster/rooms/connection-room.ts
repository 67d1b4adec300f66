import type { ConnectionView } from '../../../contract/schemas/snapshot.js';
import { expiringCerts } from '../../facts/tls/cert-expiry.js';
import { connectionNotes } from '../../facts/observations/engine-notes.js';
import type { ConnectionInput, TrackerInput } from '../tracker-input.js';
import type { AlertRoom } from './alerts/alert-room.js';
import type { ClusterLog } from './cluster-log.js';
import type { Room } from './room.js';

const isLive = (s: ConnectionView['status']): boolean => s === 'live' || s === 'failed-over';
/** How long a failed-over session must have run, with every management server up, before it is just live again. */
export const FAILOVER_SETTLE_MS = 60_000;
const isLost = (s: string): boolean => s === 'reconnecting' || s === 'offline';

/**
 * How ndbtop is connected to the cluster: the pushed ConnectionView, ndbtop's own notes on each change in the event
 * log, and the alerts a connection raises (management server lost, event stream lost, a certificate expiring).
 * "Failed over" (a session on another management server than the first) is news while it is: once that session
 * ran FAILOVER_SETTLE_MS and every management server is up again, it is live (ndbtop does not fail back on purpose).
 */
export class ConnectionRoom implements Room {
  private current: ConnectionView;
  /** Some event came: kept here, not in the pushed connection, which every report would otherwise move. */
  private eventsSeen = false;
  private certAlerts = new Set<string>();

  /** When the cluster last stopped being live (or first tried to connect); null while live. */
  private downSince: number | null = null;

  constructor(
    private readonly alerts: AlertRoom,
    private readonly log: ClusterLog,
    connectstring: string,
    mode: ConnectionView['mode'],
    /** Every management server the cluster lists is up. */
    private readonly mgmdsUp: () => boolean,
  ) {
    this.current = { mode, status: 'connecting', connectstring, mgmd: null, serverVersion: null, failovers: 0, lastError: null, eventStream: { status: 'connecting' } };
  }

  get view(): ConnectionView {
    return this.current;
  }

  /** Had the management server and lost it, or it stopped answering: what the nodes showed is as of then. */
  get lost(): boolean {
    return isLost(this.current.status) || this.current.status === 'stale' || this.current.status === 'refused' || this.current.status === 'not-ready';
  }

  /** A copy the caller may keep: the view itself is replaced, never changed, but its parts are shared. */
  copy(): ConnectionView {
    const c = this.current;
    return { ...c, mgmd: c.mgmd && { ...c.mgmd }, eventStream: { ...c.eventStream } };
  }

  input(input: TrackerInput): void {
    if (input.kind === 'connection') this.apply(input.connection, input.t);
    else if (input.kind === 'tick' && this.current.status === 'failed-over' && this.settled(this.current, input.t)) this.current = { ...this.current, status: 'live' };
  }

  private settled(c: ConnectionInput, at: number): boolean {
    return c.mgmd !== null && at - c.mgmd.since >= FAILOVER_SETTLE_MS && this.mgmdsUp();
  }

  event(): boolean {
    this.eventsSeen = true;
    return false;
  }

  private apply(c: ConnectionInput, at: number): void {
    const before = this.current;
    const status = c.status === 'failed-over' && this.settled(c, at) ? 'live' : c.status;
    this.downSince = isLive(c.status) ? null : (this.downSince ?? at);
    this.current = { ...c, status, mode: before.mode, eventStream: { status: c.eventStream.status }, trouble: troubleOf(before, c, this.downSince) };
    for (const n of connectionNotes(before, this.current, at, this.eventsSeen)) this.log.note(n);
    if (isLive(c.status)) this.alerts.resolve('mgmd-lost', at);
    else if ((isLive(before.status) || before.status === 'stale') && isLost(c.status)) {
      this.alerts.raise('mgmd-lost', 'mgmd-lost', 'critical', at, before.mgmd?.nodeId ?? null, `Lost the management server${before.mgmd ? ` ${before.mgmd.host}:${before.mgmd.port}` : ''}${c.lastError ? `: ${c.lastError}` : ''}`);
    }
    if (c.status === 'refused') this.alerts.raise('connection-refused', 'connection-refused', 'critical', at, c.mgmd?.nodeId ?? null, `The management server${c.mgmd ? ` ${c.mgmd.host}:${c.mgmd.port}` : ''} refuses this session${c.lastError ? `: ${c.lastError}` : ''}`);
    else if (isLive(c.status)) this.alerts.resolve('connection-refused', at);
    this.checkCertExpiry(c, at);
    if (c.eventStream.status === 'live') this.alerts.resolve('event-stream-lost', at);
    else if (before.eventStream.status === 'live' && isLost(c.eventStream.status)) {
      this.alerts.raise('event-stream-lost', 'event-stream-lost', 'warning', at, null, 'Lost the event stream: state changes now arrive only by polling');
    }
  }

  /** One warning per certificate of the connection that expires within the window; over once it is renewed. */
  private checkCertExpiry(c: ConnectionInput, at: number): void {
    const expiring = expiringCerts(c.tls, at);
    const keys = new Set(expiring.map((e) => e.key));
    for (const key of this.certAlerts) if (!keys.has(key)) this.alerts.resolve(key, at);
    for (const e of expiring) this.alerts.raise(e.key, 'cert-expiring', 'warning', at, null, e.message);
    this.certAlerts = keys;
  }
}

/**
 * The reason that persists while the cluster is not live: the command link's error when it stopped being live, with
 * that moment; replaced only when the status changes (reconnecting → refused), never by the next retry's wording or
 * an event-stream error, so the header does not cycle between reasons. Since when stays the outage's start.
 */
function troubleOf(before: ConnectionView, c: ConnectionInput, downSince: number | null): ConnectionView['trouble'] {
  if (downSince === null) return null;
  const reason = c.lastError !== null && !c.lastError.startsWith('event stream:') ? c.lastError : null;
  const held = before.trouble ?? null;
  if (held === null || (reason !== null && c.status !== before.status)) return reason === null ? held : { reason, since: downSince };
  return held;
}
