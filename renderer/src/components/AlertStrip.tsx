import { useState } from 'react';
import type { Alert } from '../contract.js';
import { useApp, useAppContext } from '../store/use-app.js';
import { ACTIVE_ROWS, summarizeAlerts } from '../view-model/alert-summary.js';
import { formatClock } from '../view-model/format.js';

function AlertRow({ alert, onAcknowledge }: { alert: Alert; onAcknowledge: ((alerts: readonly Alert[]) => void) | null }) {
  const resolved = alert.resolvedAt !== null;
  return (
    <div className={`alert tone-bg-${alert.severity === 'critical' ? 'bad' : 'warn'}${resolved ? ' resolved' : ''}`} data-testid="alert" data-kind={alert.kind} data-node={alert.nodeId ?? ''} data-severity={alert.severity}>
      <strong className="alert-sev">{alert.severity.toUpperCase()}</strong>
      <span>{formatClock(alert.at)}</span>
      <span className="alert-msg">{alert.message}</span>
      {alert.resolvedAt !== null && <span className="chip">resolved {formatClock(alert.resolvedAt)}</span>}
      {onAcknowledge && (
        <button type="button" onClick={() => onAcknowledge([alert])}>
          Acknowledge
        </button>
      )}
    </div>
  );
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * Every unacknowledged alert stays pinned, resolved or not and paused or not, but compactly: at most a few active
 * rows, then one line that folds the rest (more active ones, and the resolved ones a rolling restart leaves behind).
 */
export function AlertStrip() {
  const { api, store } = useAppContext();
  const alerts = useApp((s) => s.live.alerts);
  const clusterId = useApp((s) => s.live.clusterId);
  // A viewer of serve mode without --allow-changes sees alerts but cannot acknowledge them for everyone.
  const canAcknowledge = useApp((s) => s.appInfo?.changesEnabled !== false);
  const [allActive, setAllActive] = useState(false);
  const [review, setReview] = useState(false);
  const { active, resolved, resolvedSince } = summarizeAlerts(alerts);
  if (active.length + resolved.length === 0 || clusterId === null) return null;
  const acknowledge = (list: readonly Alert[]): void => {
    Promise.all(list.map((a) => api.acknowledgeAlert({ clusterId, alertId: a.id }))).catch((err: unknown) => store.setUi({ error: `acknowledge: ${String(err)}` }));
  };
  const onAcknowledge = canAcknowledge ? acknowledge : null;
  const shownActive = allActive ? active : active.slice(0, ACTIVE_ROWS);
  const hiddenActive = active.length - shownActive.length;
  const folded = hiddenActive > 0 || resolved.length > 0 || allActive;
  return (
    <section className="alert-strip" data-testid="alerts" aria-label="alerts">
      {shownActive.map((a) => (
        <AlertRow key={a.id} alert={a} onAcknowledge={onAcknowledge} />
      ))}
      {folded && (
        <div className="alert-fold" data-testid="alert-fold">
          {(hiddenActive > 0 || allActive) && (
            <button type="button" className="link" data-testid="alerts-more" onClick={() => setAllActive(!allActive)}>
              {allActive ? `Show ${ACTIVE_ROWS} active only` : `+${hiddenActive} more active`}
            </button>
          )}
          {resolved.length > 0 && (
            <span data-testid="alerts-resolved" data-count={resolved.length}>
              {plural(resolved.length, 'resolved alert')} since {formatClock(resolvedSince ?? 0)} —{' '}
              <button type="button" className="link" aria-expanded={review} onClick={() => setReview(!review)}>
                {review ? 'Hide' : 'Review'}
              </button>{' '}
              {canAcknowledge && (
                <>
                  ·{' '}
                  <button type="button" className="link" data-testid="ack-resolved" onClick={() => acknowledge(resolved)}>
                    Acknowledge all resolved
                  </button>
                </>
              )}
            </span>
          )}
          <span className="spacer" />
          {canAcknowledge && (
            <button type="button" data-testid="ack-all" onClick={() => acknowledge([...active, ...resolved])}>
              Acknowledge all ({active.length + resolved.length})
            </button>
          )}
        </div>
      )}
      {review && resolved.length > 0 && (
        <div className="alert-review" data-testid="alert-review">
          {resolved.map((a) => (
            <AlertRow key={a.id} alert={a} onAcknowledge={onAcknowledge} />
          ))}
        </div>
      )}
    </section>
  );
}
