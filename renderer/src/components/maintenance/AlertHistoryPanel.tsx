import { useEffect, useMemo, useState } from 'react';
import { ALERT_KIND_LABEL, type AlertHistory } from '../../contract.js';
import { useNow } from '../../hooks/use-now.js';
import { useApp, useAppContext } from '../../store/use-app.js';
import { formatClock } from '../../view-model/format.js';
import { historyRows, historySummary, rowDuration, windowEventText } from '../../view-model/alerts/maintenance.js';
import { Panel } from '../dialogs/Panel.js';

/** Asked again this often while open: a silenced alert changes nothing the page is pushed. */
const REFRESH_MS = 2000;

type Filter = 'all' | 'raised' | 'suppressed';

/**
 * Every alert of the session from raise to clear, newest first: shown as a banner, or suppressed by a maintenance
 * window (which one, and its reason), with how long each lasted; and every window opened, extended, closed or expired.
 */
export function AlertHistoryPanel() {
  const { api, store } = useAppContext();
  const close = () => store.setUi({ panel: null });
  const clusterId = useApp((s) => s.live.clusterId);
  const windows = useApp((s) => s.live.maintenance);
  const alerts = useApp((s) => s.live.alerts);
  const now = useNow();
  const [history, setHistory] = useState<AlertHistory | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [filter, setFilter] = useState<Filter>('all');
  useEffect(() => {
    if (clusterId === null) return;
    let live = true;
    const ask = () =>
      api
        .getAlertHistory({ clusterId })
        .then((h) => live && (setHistory(h), setError(null)))
        .catch((err: unknown) => live && setError(err instanceof Error ? err.message : String(err)));
    void ask();
    const id = setInterval(() => void ask(), REFRESH_MS);
    return () => {
      live = false;
      clearInterval(id);
    };
    // Alerts raised or resolved: ask at once rather than at the next refresh.
  }, [api, clusterId, alerts]);
  const rows = useMemo(() => (history ? historyRows(history, windows) : []), [history, windows]);
  const summary = historySummary(rows);
  const shown = filter === 'all' ? rows : rows.filter((r) => r.outcome === filter);
  return (
    <Panel title="Alert history" testId="alert-history" wide onClose={close}>
      {error && <p className="tone-bad">{error}</p>}
      <p data-testid="alert-history-summary" data-raised={summary.raised} data-suppressed={summary.suppressed}>
        {rows.length === 0 ? 'No alerts this session.' : `${summary.raised} raised, ${summary.suppressed} suppressed by maintenance windows, ${summary.open} still on`}
        {history && history.dropped > 0 && <span className="muted"> · {history.dropped} older ones no longer kept</span>}
      </p>
      <div className="window-picker" role="group" aria-label="show">
        {(['all', 'raised', 'suppressed'] as const).map((f) => (
          <button key={f} type="button" aria-pressed={f === filter} onClick={() => setFilter(f)}>
            {f}
          </button>
        ))}
      </div>
      <div className="history-scroll">
        <table className="history-table">
          <thead>
            <tr>
              <th>raised</th>
              <th>cleared</th>
              <th>lasted</th>
              <th>severity</th>
              <th>what</th>
              <th>outcome</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((r) => (
              <tr key={r.id} data-testid="history-row" data-kind={r.kind} data-node={r.nodeId ?? ''} data-outcome={r.outcome} className={r.outcome === 'suppressed' ? 'suppressed' : ''}>
                <td>{formatClock(r.raisedAt)}</td>
                <td>{r.clearedAt === null ? <span className="tone-warn">still on</span> : formatClock(r.clearedAt)}</td>
                <td>{rowDuration(r, now)}</td>
                <td className={r.severity === 'critical' ? 'tone-bad' : 'tone-warn'}>{r.severity}</td>
                <td title={ALERT_KIND_LABEL[r.kind]}>{r.message}</td>
                <td data-testid="history-outcome">{r.outcome === 'raised' ? 'banner' : `suppressed by ${r.why ?? 'maintenance'}`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {history && history.maintenance.length > 0 && (
        <>
          <h3>Maintenance windows</h3>
          <ul className="maintenance-list">
            {[...history.maintenance].reverse().map((e) => (
              <li key={`${e.windowId}-${e.what}-${e.at}`} data-testid="history-window" data-id={e.windowId} data-what={e.what} className={e.silenceCritical ? 'tone-bad' : undefined}>
                {formatClock(e.at)} · {windowEventText(e)}
              </li>
            ))}
          </ul>
        </>
      )}
    </Panel>
  );
}
