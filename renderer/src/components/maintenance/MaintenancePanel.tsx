import { useState, type FormEvent } from 'react';
import { ALERT_KIND_LABEL, type AlertKind, type MaintenanceWindow } from '../../contract.js';
import { useNow } from '../../hooks/use-now.js';
import { useApp, useAppContext } from '../../store/use-app.js';
import { ALERT_KINDS, DEFAULT_DURATION, EXTEND_MS, isOpen, silenceText, WINDOW_DURATIONS, windowTiming } from '../../view-model/alerts/maintenance.js';
import { Panel } from '../dialogs/Panel.js';

/** Closed windows listed under the open ones: the most recent few. */
const RECENT_CLOSED = 5;

/** Why a viewer's controls are off: serve refuses the requests (FORBIDDEN) unless started with --allow-changes. */
const VIEWER_REASON = 'Read-only: this server does not let viewers open, extend or end maintenance windows (ndbtop serve --allow-changes).';

/** Serve mode refuses changes from browsers unless started with --allow-changes; the desktop always allows them. */
const useCanChange = (): boolean => useApp((s) => s.appInfo?.changesEnabled !== false);

interface RowActions {
  stop: (id: string) => void;
  extend: (id: string) => void;
  /** Why they are off, or null. */
  disabled: string | null;
}

function WindowRow({ w, now, actions }: { w: MaintenanceWindow; now: number; actions: RowActions | null }) {
  const open = isOpen(w, now);
  return (
    <li className={`maintenance-window${open ? ' open' : ''}`} data-testid="maintenance-window" data-id={w.id} data-open={open} data-critical={w.silenceCritical}>
      <strong>{w.reason}</strong>
      <span className="muted">
        {' '}
        · {windowTiming(w, now)} · opened by {w.openedBy} · silences{' '}
      </span>
      <span className={w.silenceCritical ? 'tone-bad' : 'muted'} data-testid="maintenance-silences">
        {silenceText(w.silence, w.silenceCritical)}
      </span>
      {open && actions && (
        <>
          <button type="button" data-testid="maintenance-extend" disabled={actions.disabled !== null} title={actions.disabled ?? undefined} onClick={() => actions.extend(w.id)}>
            +30 min
          </button>
          <button type="button" data-testid="maintenance-stop" disabled={actions.disabled !== null} title={actions.disabled ?? undefined} onClick={() => actions.stop(w.id)}>
            End now
          </button>
        </>
      )}
    </li>
  );
}

/**
 * Opening a window: why, for how long, who, and which alert kinds it keeps out of the banners (all by default; their
 * critical alerts only when ticked). A viewer sees the form disabled, with why.
 */
function OpenWindowForm() {
  const { api } = useAppContext();
  const clusterId = useApp((s) => s.live.clusterId);
  const replay = useApp((s) => s.live.connection?.mode === 'replay');
  const canChange = useCanChange();
  const [reason, setReason] = useState('');
  const [by, setBy] = useState('');
  const [duration, setDuration] = useState(DEFAULT_DURATION);
  const [critical, setCritical] = useState(false);
  const [silence, setSilence] = useState<ReadonlySet<AlertKind>>(new Set(ALERT_KINDS));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const toggle = (kind: AlertKind) => setSilence((prev) => (prev.has(kind) ? new Set([...prev].filter((k) => k !== kind)) : new Set([...prev, kind])));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (clusterId === null || silence.size === 0) return;
    const ms = WINDOW_DURATIONS[duration]?.ms;
    setBusy(true);
    setError(null);
    api
      .startMaintenance({ clusterId, reason: reason.trim() || undefined, silence: [...silence], silenceCritical: critical, ...(ms === undefined ? {} : { durationMs: ms }), ...(by.trim() ? { by: by.trim() } : {}) })
      .then(() => {
        setReason('');
        setCritical(false);
      })
      .catch((err: unknown) => setError(err instanceof Error ? err.message : String(err)))
      .finally(() => setBusy(false));
  };
  if (replay) return <p className="muted">A replay plays back the windows it recorded; it cannot open new ones.</p>;
  return (
    <form className="maintenance-form" onSubmit={submit}>
      {!canChange && (
        <p className="muted" data-testid="maintenance-forbidden">
          {VIEWER_REASON}
        </p>
      )}
      <fieldset className="maintenance-fields" disabled={!canChange} title={canChange ? undefined : VIEWER_REASON}>
        <label>
          Reason{' '}
          <input data-testid="maintenance-reason" size={40} maxLength={500} placeholder="e.g. rolling upgrade to 8.4.3" value={reason} onChange={(e) => setReason(e.target.value)} />
        </label>
        <label>
          By{' '}
          <input data-testid="maintenance-by" size={16} maxLength={100} placeholder="your name" value={by} onChange={(e) => setBy(e.target.value)} />
        </label>
        <label>
          Duration{' '}
          <select data-testid="maintenance-duration" value={duration} onChange={(e) => setDuration(Number(e.target.value))}>
            {WINDOW_DURATIONS.map((d, i) => (
              <option key={d.label} value={i}>
                {d.label}
              </option>
            ))}
          </select>
        </label>
        <fieldset className="maintenance-kinds">
          <legend>
            Silence{' '}
            <button type="button" className="link" onClick={() => setSilence(new Set(silence.size === ALERT_KINDS.length ? [] : ALERT_KINDS))}>
              {silence.size === ALERT_KINDS.length ? 'none' : 'all'}
            </button>
          </legend>
          {ALERT_KINDS.map((k) => (
            <label key={k}>
              <input type="checkbox" checked={silence.has(k)} onChange={() => toggle(k)} /> {ALERT_KIND_LABEL[k]}
            </label>
          ))}
        </fieldset>
        <label className={critical ? 'tone-bad' : undefined}>
          <input type="checkbox" data-testid="maintenance-critical" checked={critical} onChange={(e) => setCritical(e.target.checked)} /> Silence critical alerts too (node down,
          node group offline, lost management server …): the header says so while the window is open
        </label>
        <div className="modal-buttons">
          {error && <span className="tone-bad">{error}</span>}
          <button type="submit" data-testid="maintenance-start" disabled={!canChange || busy || clusterId === null || silence.size === 0}>
            Start maintenance window
          </button>
        </div>
      </fieldset>
    </form>
  );
}

/**
 * Maintenance windows of the shown cluster: open one (its reason, duration and the alert kinds it silences), end an
 * open one, and the last few that ended. What a window silenced is in the alert history, marked with it.
 */
export function MaintenancePanel() {
  const { api, store } = useAppContext();
  const close = () => store.setUi({ panel: null });
  const windows = useApp((s) => s.live.maintenance);
  const clusterId = useApp((s) => s.live.clusterId);
  const replay = useApp((s) => s.live.connection?.mode === 'replay');
  const canChange = useCanChange();
  const now = useNow();
  const open = windows.filter((w) => isOpen(w, now));
  const closed = windows.filter((w) => !isOpen(w, now)).slice(-RECENT_CLOSED).reverse();
  const failed = (err: unknown) => store.setUi({ error: `maintenance: ${err instanceof Error ? err.message : String(err)}` });
  const actions: RowActions | null =
    replay || clusterId === null
      ? null
      : {
          stop: (windowId) => void api.stopMaintenance({ clusterId, windowId }).catch(failed),
          extend: (windowId) => void api.extendMaintenance({ clusterId, windowId, durationMs: EXTEND_MS }).catch(failed),
          disabled: canChange ? null : VIEWER_REASON,
        };
  return (
    <Panel title="Maintenance windows" testId="maintenance-panel" wide onClose={close}>
      <p className="muted">
        While a window is open, the alert kinds it silences raise no banner (their critical alerts still do, unless the window says otherwise): they go to the{' '}
        <button type="button" className="link" onClick={() => store.setUi({ panel: 'alert-history' })}>
          alert history
        </button>
        , marked with the window, and one still on when it ends is raised then. The charts shade the window.
      </p>
      <h3>Open</h3>
      {open.length === 0 ? (
        <p className="muted">None.</p>
      ) : (
        <ul className="maintenance-list">
          {open.map((w) => (
            <WindowRow key={w.id} w={w} now={now} actions={actions} />
          ))}
        </ul>
      )}
      <h3>New window</h3>
      <OpenWindowForm />
      {closed.length > 0 && (
        <>
          <h3>Ended</h3>
          <ul className="maintenance-list">
            {closed.map((w) => (
              <WindowRow key={w.id} w={w} now={now} actions={null} />
            ))}
          </ul>
        </>
      )}
    </Panel>
  );
}
