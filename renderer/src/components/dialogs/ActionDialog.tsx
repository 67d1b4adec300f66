import { useEffect, useRef, useState } from 'react';
import { useFocusTrap } from '../../hooks/use-focus-trap.js';
import type { ActionPreview, ActionResult, OperatorAction } from '../../contract.js';
import { useApp, useAppContext } from '../../store/use-app.js';

type Restart = Extract<OperatorAction, { kind: 'restart' }>;

/** The id an operator types to confirm an unsafe action: the node it is about. */
function confirmWord(action: OperatorAction): string {
  if ('nodeId' in action) return String(action.nodeId);
  if ('apiNodeId' in action) return String(action.apiNodeId);
  return 'yes';
}

/**
 * The confirmation every operator action passes. The engine's preview (it knows the node groups) is asked again on
 * every change of the cluster while the dialog is open, so it says what will happen now, not when it was opened.
 * Unsafe: danger styling, the reason, and the node id typed as a second step; impossible: Confirm disabled. What is
 * sent does not depend on the preview, and the management server's answer is shown as it gave it.
 */
export function ActionDialog() {
  const action = useApp((s) => s.ui.pendingAction);
  // Mounted per action, so the dialog takes the focus each time it opens and gives it back when it closes.
  return action ? <PendingAction action={action} /> : null;
}

function PendingAction({ action }: { action: OperatorAction }) {
  const { api, store } = useAppContext();
  const ref = useRef<HTMLDivElement>(null);
  // The focus opens on Cancel: an Enter or Space pressed at once must never tick "initial" (wipe the node's file
  // system) or confirm; a destructive choice is always one the operator moves to.
  const cancel = useRef<HTMLButtonElement>(null);
  useFocusTrap(ref, cancel);
  const clusterId = useApp((s) => s.shown.clusterId);
  // Anything a preview depends on: node states, node groups, master, backup. A new object means "ask again".
  const nodes = useApp((s) => s.live.nodes);
  const groups = useApp((s) => s.live.nodeGroups);
  const master = useApp((s) => s.live.masterNodeId);
  const backup = useApp((s) => s.live.backup);
  // An answer lost with the page's link (or late past the request's timeout) is shown as an error; nothing in an
  // idle cluster would ever change again to ask anew, so the link and the cluster connection coming back do.
  const transport = useApp((s) => s.ui.transport);
  const connection = useApp((s) => s.live.connection?.status);
  const [preview, setPreview] = useState<ActionPreview | null>(null);
  const [openedSafe, setOpenedSafe] = useState<boolean | null>(null);
  const [typed, setTyped] = useState('');
  const [result, setResult] = useState<ActionResult | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    setPreview(null);
    setOpenedSafe(null);
    setTyped('');
    setResult(null);
  }, [action, clusterId]);

  useEffect(() => {
    if (clusterId === null) return;
    let current = true;
    api
      .previewAction({ clusterId, action })
      .then((p) => {
        if (!current) return;
        setPreview(p);
        setOpenedSafe((was) => was ?? p.safe);
      })
      .catch((err: unknown) => current && setPreview({ description: String(err), safe: false, possible: false, warnings: [], consequences: [], allowed: false }));
    return () => {
      current = false;
    };
  }, [api, action, clusterId, nodes, groups, master, backup, transport, connection]);

  const close = () => store.setUi({ pendingAction: null });
  const setRestart = (patch: Partial<Restart>) => action.kind === 'restart' && store.setUi({ pendingAction: { ...action, ...patch } });
  const word = confirmWord(action);
  const unsafe = preview !== null && !preview.safe && preview.possible;
  const turnedUnsafe = unsafe && openedSafe === true;
  const canConfirm = preview !== null && preview.allowed && preview.possible && !busy && (!unsafe || typed.trim() === word);
  const confirm = async () => {
    if (clusterId === null || !canConfirm) return;
    setBusy(true);
    try {
      setResult(await api.runAction({ clusterId, action }));
    } catch (err) {
      setResult({ ok: false, message: err instanceof Error ? err.message : String(err) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="modal-backdrop" role="presentation" onClick={close}>
      <div
        ref={ref}
        className={`modal${unsafe ? ' modal-danger' : ''}`}
        role="dialog"
        aria-modal="true"
        aria-label="Confirm action"
        data-testid="action-dialog"
        data-safe={preview?.safe ?? ''}
        data-possible={preview?.possible ?? ''}
        data-turned-unsafe={turnedUnsafe}
        tabIndex={-1}
        onClick={(e) => e.stopPropagation()}
      >
        <h2>{unsafe ? 'Danger: confirm' : 'Confirm'}</h2>
        {preview === null ? <p>Asking the engine what this would do…</p> : <p className="preview-text">{preview.description}</p>}
        {action.kind === 'restart' && (
          <div className="options">
            <label>
              <input type="checkbox" checked={action.initial ?? false} onChange={(e) => setRestart({ initial: e.target.checked })} /> initial (wipe the node's file system)
            </label>
            <label>
              <input type="checkbox" checked={action.noStart ?? false} onChange={(e) => setRestart({ noStart: e.target.checked })} /> no start (leave it NOT STARTED)
            </label>
          </div>
        )}
        {turnedUnsafe && (
          <p className="warning tone-bad" data-testid="turned-unsafe">
            The cluster changed while this dialog was open: this is no longer safe.
          </p>
        )}
        {preview && !preview.possible && preview.allowed && <p className="warning tone-bad">NOT POSSIBLE NOW</p>}
        {unsafe && <p className="warning tone-bad">NOT SAFE</p>}
        <div data-testid="action-warnings">
          {preview?.warnings.map((w) => (
            <p key={w} className="warning tone-warn">
              ⚠ {w}
            </p>
          ))}
        </div>
        {preview && preview.consequences.length > 0 && (
          <ul className="consequences" data-testid="action-consequences">
            {preview.consequences.map((c) => (
              <li key={c}>{c}</li>
            ))}
          </ul>
        )}
        {unsafe && !result && (
          <label className="type-to-confirm">
            Type <strong>{word}</strong> to do it anyway:{' '}
            <input
              data-testid="confirm-typed"
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
              onKeyDown={(e) => e.key === 'Enter' && void confirm()}
              autoComplete="off"
              spellCheck={false}
              size={6}
            />
          </label>
        )}
        {result && (
          <p className={`result tone-${result.ok ? 'ok' : 'bad'}`} data-testid="action-result" data-ok={result.ok}>
            {result.ok ? 'Done' : 'Refused'}: {result.message}
          </p>
        )}
        <div className="modal-buttons">
          <button type="button" ref={cancel} data-testid="action-cancel" onClick={close}>
            {result ? 'Close' : 'Cancel'}
          </button>
          {!result && (
            <button type="button" data-testid="action-confirm" className={unsafe ? 'danger' : 'primary'} disabled={!canConfirm} onClick={() => void confirm()}>
              {unsafe ? `Do it anyway` : 'Confirm'}
            </button>
          )}
        </div>
      </div>
    </div>
  );
}
