import { useApp, useAppContext } from '../store/use-app.js';
import { formatClock } from '../view-model/format.js';

/** Unacknowledged alerts stay pinned above every view until acknowledged, resolved or not, and paused or not. */
export function AlertStrip() {
  const { api, store } = useAppContext();
  const alerts = useApp((s) => s.live.alerts);
  const clusterId = useApp((s) => s.live.clusterId);
  // Ongoing first, then newest first: what still needs a hand is at the top.
  const open = alerts.filter((a) => !a.acknowledged).sort((a, b) => Number(a.resolvedAt !== null) - Number(b.resolvedAt !== null) || b.at - a.at);
  if (open.length === 0 || clusterId === null) return null;
  const acknowledge = (alertId: string) =>
    api.acknowledgeAlert({ clusterId, alertId }).catch((err: unknown) => store.setUi({ error: `acknowledge: ${String(err)}` }));
  return (
    <section className="alert-strip" data-testid="alerts" aria-label="alerts">
      {open.map((a) => (
        <div key={a.id} className={`alert tone-bg-${a.severity === 'critical' ? 'bad' : 'warn'}${a.resolvedAt !== null ? ' resolved' : ''}`} data-testid="alert" data-kind={a.kind} data-node={a.nodeId ?? ''}>
          <strong>{a.severity.toUpperCase()}</strong>
          <span>{formatClock(a.at)}</span>
          <span className="alert-msg">{a.message}</span>
          {a.resolvedAt !== null && <span className="chip">resolved {formatClock(a.resolvedAt)}</span>}
          <button type="button" onClick={() => void acknowledge(a.id)}>
            Acknowledge
          </button>
        </div>
      ))}
    </section>
  );
}
