import { useEffect, useRef, useState } from 'react';
import { useFocusTrap } from '../hooks/use-focus-trap.js';
import type { ActionPreview, ActionResult, OperatorAction } from '../contract.js';
import { useApp, useAppContext } from '../store/use-app.js';

type Restart = Extract<OperatorAction, { kind: 'restart' }>;

/**
 * The confirmation every operator action passes: the engine's own description and warnings (it knows the node
 * groups), the options of a restart, and the management server's answer once sent.
 */
export function ActionDialog() {
  const action = useApp((s) => s.ui.pendingAction);
  // Mounted per action, so the dialog takes the focus each time it opens and gives it back when it closes.
  return action ? <PendingAction action={action} /> : null;
}

function PendingAction({ action }: { action: OperatorAction }) {
  const { api, store } = useAppContext();
  const ref = useRef<HTMLDivElement>(null);
  useFocusTrap(ref);
  const clusterId = useApp((s) => s.shown.clusterId);
  const [preview, setPreview] = useState<ActionPreview | null>(null);
  const [result, setResult] = useState<ActionResult | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    setPreview(null);
    setResult(null);
    if (clusterId === null) return;
    let current = true;
    api
      .previewAction({ clusterId, action })
      .then((p) => current && setPreview(p))
      .catch((err: unknown) => current && setPreview({ description: String(err), safe: false, warnings: [], allowed: false }));
    return () => {
      current = false;
    };
  }, [api, action, clusterId]);

  const close = () => store.setUi({ pendingAction: null });
  const setRestart = (patch: Partial<Restart>) => action.kind === 'restart' && store.setUi({ pendingAction: { ...action, ...patch } });
  const confirm = async () => {
    if (clusterId === null) return;
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
      <div ref={ref} className="modal" role="dialog" aria-modal="true" aria-label="Confirm action" data-testid="action-dialog" tabIndex={-1} onClick={(e) => e.stopPropagation()}>
        <h2>Confirm</h2>
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
        {preview && !preview.safe && <p className="warning tone-bad">NOT SAFE</p>}
        {preview?.warnings.map((w) => (
          <p key={w} className="warning tone-warn">
            ⚠ {w}
          </p>
        ))}
        {result && <p className={`result tone-${result.ok ? 'ok' : 'bad'}`}>{result.ok ? 'Done' : 'Refused'}: {result.message}</p>}
        <div className="modal-buttons">
          <button type="button" onClick={close}>
            {result ? 'Close' : 'Cancel'}
          </button>
          {!result && (
            <button type="button" className={preview?.safe ? 'primary' : 'danger'} disabled={!preview?.allowed || busy} onClick={() => void confirm()}>
              {preview?.safe === false ? 'Do it anyway' : 'Confirm'}
            </button>
          )}
        </div>
      </div>
    </div>
  );
}
