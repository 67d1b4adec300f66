import { useLayoutEffect, useRef, useState } from 'react';
import { ALERT_KIND_LABEL, type Alert } from '../../contract.js';
import { perNodeMap } from '../../store/node-map.js';
import { useApp, useAppContext } from '../../store/use-app.js';
import { openIncident } from '../incidents/IncidentBadge.js';
import { groupAlerts, groupTitle, type AlertGroup } from '../../view-model/alerts/alert-fold.js';
import { ACTIVE_ROWS, summarizeAlerts } from '../../view-model/alerts/alert-summary.js';
import { formatClock, formatNodeIds } from '../../view-model/format.js';

/** `onAcknowledge` null: this viewer may not acknowledge (serve without --allow-changes), so no button. */
type Acknowledge = ((alerts: readonly Alert[]) => void) | null;

const alertCount = (n: number): string => `${n} alert${n === 1 ? '' : 's'}`;

/** One line per alert, however long its message (a collapse lists what changed): the whole of it behind "Details". */
function AlertRow({ alert, onAcknowledge }: { alert: Alert; onAcknowledge: Acknowledge }) {
  const { store } = useAppContext();
  const [details, setDetails] = useState(false);
  const resolved = alert.resolvedAt !== null;
  return (
    <>
      <div
        className={`alert tone-bg-${alert.severity === 'critical' ? 'bad' : 'warn'}${resolved ? ' resolved' : ''}`}
        data-testid="alert"
        data-kind={alert.kind}
        data-node={alert.nodeId ?? ''}
        data-severity={alert.severity}
        data-cluster-wide={alert.clusterWide ? alert.clusterWide.nodeIds.length : undefined}
      >
        <strong className="alert-sev">{alert.severity.toUpperCase()}</strong>
        <span>{formatClock(alert.at)}</span>
        <span className="alert-msg one-line" title={alert.message}>
          {alert.message}
        </span>
        {alert.resolvedAt !== null && <span className="chip">resolved {formatClock(alert.resolvedAt)}</span>}
        {alert.incidentId && (
          <button type="button" className="link" data-testid="alert-incident" onClick={() => openIncident(store, alert.incidentId ?? '')}>
            Why?
          </button>
        )}
        <button type="button" className="link" aria-expanded={details} data-testid="alert-details-toggle" onClick={() => setDetails(!details)}>
          {details ? 'Hide' : 'Details'}
        </button>
        {onAcknowledge && (
          <button type="button" onClick={() => onAcknowledge([alert])}>
            Acknowledge
          </button>
        )}
      </div>
      {details && (
        <div className="alert-details alert-overlay" data-testid="alert-details">
          {alert.message}
          {alert.clusterWide && <div data-testid="alert-details-nodes">At the mark or held there by its hysteresis: {formatNodeIds(alert.clusterWide.nodeIds)}</div>}
        </div>
      )}
    </>
  );
}

/** Many alerts of one kind as one row ("memory ≥ 90 % used on 141 of 144 data nodes: 3, 4, …"), expandable. */
function AlertGroupRow({ group, dataNodes, onAcknowledge }: { group: AlertGroup; dataNodes: number; onAcknowledge: Acknowledge }) {
  const [open, setOpen] = useState(false);
  const title = groupTitle(group, dataNodes);
  const newest = Math.max(...group.alerts.map((a) => a.at));
  return (
    <>
      <div className={`alert tone-bg-${group.severity === 'critical' ? 'bad' : 'warn'}`} data-testid="alert-group" data-kind={group.kind} data-count={group.alerts.length} data-severity={group.severity}>
        <strong className="alert-sev">{group.severity.toUpperCase()}</strong>
        <span>{formatClock(newest)}</span>
        {/* One line at any width: the node list ellipsises, the whole of it is in the title and the expanded list. */}
        <span className="alert-msg one-line" title={`${ALERT_KIND_LABEL[group.kind]}: ${formatNodeIds(group.nodeIds)}`}>
          {title}
        </span>
        <button type="button" aria-expanded={open} data-testid="alert-group-toggle" onClick={() => setOpen(!open)}>
          {/* A count says what it counts: "Acknowledge 3" read as "acknowledge node 3". */}
          {open ? 'Hide' : `Show ${alertCount(group.alerts.length)}`}
        </button>
        {onAcknowledge && (
          <button type="button" onClick={() => onAcknowledge(group.alerts)}>
            Acknowledge {alertCount(group.alerts.length)}
          </button>
        )}
      </div>
      {open && (
        <div className="alert-review alert-overlay" data-testid="alert-group-list">
          {group.alerts.map((a) => (
            <AlertRow key={a.id} alert={a} onAcknowledge={onAcknowledge} />
          ))}
        </div>
      )}
    </>
  );
}

/**
 * Every unacknowledged alert stays pinned, resolved or not and paused or not, in a strip of fixed height so the page
 * below never moves as alerts come and go: one alert row (the most severe; active alerts of one kind fold into one
 * row) and one line that folds the rest (more active kinds, the resolved ones a rolling restart leaves behind); the
 * alert history and the maintenance windows open from the view bar just below. Whatever is opened from it (the other
 * active alerts, the resolved ones, a row's details or a kind's nodes) lies over the page.
 */
function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

const dataNodeCount = perNodeMap((nodes) => {
  let n = 0;
  for (const node of nodes.values()) if (node.type === 'NDB') n += 1;
  return n;
});

export function AlertStrip() {
  const { api, store } = useAppContext();
  const alerts = useApp((s) => s.live.alerts);
  const dataNodes = useApp((s) => dataNodeCount(s.live.nodes));
  const clusterId = useApp((s) => s.live.clusterId);
  // A viewer of serve mode without --allow-changes sees alerts but cannot acknowledge them for everyone.
  const canAcknowledge = useApp((s) => s.appInfo?.changesEnabled !== false);
  const [allActive, setAllActive] = useState(false);
  const [review, setReview] = useState(false);
  const rows = useRef<HTMLDivElement>(null);
  const { active, resolved, resolvedSince } = summarizeAlerts(alerts);
  const leader = active[0]?.id;
  // A new leader is shown at once even if the rows box was scrolled (by hand, or by the browser keeping the row it
  // showed in place when one was put above it): the strip always shows the first of the one order.
  useLayoutEffect(() => {
    if (rows.current) rows.current.scrollTop = 0;
  }, [leader]);
  // Nothing to acknowledge: no strip (the view bar leads to the history and the windows).
  if (active.length + resolved.length === 0 || clusterId === null) return null;
  const acknowledge = (list: readonly Alert[]): void => {
    Promise.all(list.map((a) => api.acknowledgeAlert({ clusterId, alertId: a.id }))).catch((err: unknown) => store.setUi({ error: `acknowledge: ${String(err)}` }));
  };
  const onAcknowledge = canAcknowledge ? acknowledge : null;
  const groups = groupAlerts(active);
  const row = (g: AlertGroup) =>
    g.alerts.length === 1 && g.alerts[0] ? <AlertRow key={g.key} alert={g.alerts[0]} onAcknowledge={onAcknowledge} /> : <AlertGroupRow key={g.key} group={g} dataNodes={dataNodes} onAcknowledge={onAcknowledge} />;
  // The strip shows the first row (the others scroll below it in its box); "more" lays them all over the page.
  const beyondFirst = groups.slice(1).reduce((n, g) => n + g.alerts.length, 0);
  return (
    <section className="alert-strip" data-testid="alerts" aria-label="alerts" data-active={active.length}>
      <div className="alert-rows" data-testid="alert-rows" ref={rows}>
        {groups.length === 0 && (
          <div className="alert alert-none" data-testid="no-alerts">
            No active alerts; resolved ones wait to be acknowledged below
          </div>
        )}
        {groups.slice(0, ACTIVE_ROWS).map(row)}
      </div>
      <div className="alert-fold" data-testid="alert-fold">
        {(beyondFirst > 0 || allActive) && (
          <button type="button" className="link" data-testid="alerts-more" aria-expanded={allActive} onClick={() => setAllActive(!allActive)}>
            {allActive ? 'Hide the other active alerts' : `+${beyondFirst} more active`}
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
            Acknowledge all {alertCount(active.length + resolved.length)}
          </button>
        )}
      </div>
      {allActive && beyondFirst > 0 && (
        <div className="alert-review alert-overlay" data-testid="alerts-all">
          {groups.slice(1).map(row)}
        </div>
      )}
      {review && resolved.length > 0 && (
        <div className="alert-review alert-overlay" data-testid="alert-review">
          {resolved.map((a) => (
            <AlertRow key={a.id} alert={a} onAcknowledge={onAcknowledge} />
          ))}
        </div>
      )}
    </section>
  );
}
