import { useState } from 'react';
import { useApp, useAppContext } from '../store/use-app.js';
import { formatBytes } from '../view-model/format.js';

/** Cluster-wide actions and the backup in progress; every button only opens the confirmation dialog. */
export function ClusterActions() {
  const { store } = useAppContext();
  const enabled = useApp((s) => s.appInfo?.actionsEnabled === true);
  const backup = useApp((s) => s.shown.backup);
  const singleUser = useApp((s) => s.shown.singleUserApiNodeId);
  const [apiNodeId, setApiNodeId] = useState('');
  const backupText = backup && (
    <span className="muted" data-testid="backup">
      backup {backup.backupId} {backup.status}
      {backup.status === 'running' || backup.status === 'completed' ? ` · ${formatBytes(backup.bytes)}, ${backup.records} records` : ''}
      {backup.error ? ` · ${backup.error}` : ''}
    </span>
  );
  if (!enabled) return <div className="cluster-actions">{backupText}</div>;
  return (
    <div className="cluster-actions">
      <button type="button" onClick={() => store.setUi({ pendingAction: { kind: 'startBackup' } })}>
        Start backup
      </button>
      {singleUser === null ? (
        <>
          <input aria-label="API node for single user mode" placeholder="API node id" size={6} value={apiNodeId} onChange={(e) => setApiNodeId(e.target.value.replace(/\D/g, ''))} />
          <button type="button" disabled={apiNodeId === ''} onClick={() => store.setUi({ pendingAction: { kind: 'enterSingleUser', apiNodeId: Number(apiNodeId) } })}>
            Enter single user mode
          </button>
        </>
      ) : (
        <button type="button" onClick={() => store.setUi({ pendingAction: { kind: 'exitSingleUser' } })}>
          Exit single user mode (API node {singleUser})
        </button>
      )}
      {backupText}
    </div>
  );
}
