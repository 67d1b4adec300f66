import { useMemo, useRef, useState } from 'react';
import { backupHeadline, type NodeView, type OperatorAction } from '../../contract.js';
import { perNodeMap } from '../../store/node-map.js';
import { useFiguresOldWhy } from '../../hooks/use-figures-as-of.js';
import { useApp, useAppContext } from '../../store/use-app.js';

/** The API nodes' ids and whether each is connected, as a string: the list re-renders only when that changes. */
const apiNodesKey = perNodeMap((nodes: ReadonlyMap<number, NodeView>): string =>
  [...nodes.values()]
    .filter((n) => n.type === 'API')
    .sort((a, b) => Number(b.status === 'CONNECTED') - Number(a.status === 'CONNECTED') || a.nodeId - b.nodeId)
    .map((n) => `${n.nodeId}:${n.status}:${n.address ?? ''}`)
    .join(','),
);

/** Cluster-wide actions and the backup in progress; every button only opens the confirmation dialog. */
export function ClusterActions() {
  const { store } = useAppContext();
  const enabled = useApp((s) => s.appInfo?.actionsEnabled === true);
  const backup = useApp((s) => s.shown.backup);
  const singleUser = useApp((s) => s.shown.singleUserApiNodeId);
  const [apiNodeId, setApiNodeId] = useState('');
  const [open, setOpen] = useState(false);
  // Acting on a cluster the page cannot see now: the menu waits, and says why.
  const oldWhy = useFiguresOldWhy();
  const toggle = useRef<HTMLButtonElement>(null);
  const apiKey = useApp((s) => apiNodesKey(s.shown.nodes));
  const apiNodes = useMemo(() => {
    const { nodes } = store.getState().shown;
    return apiKey === '' ? [] : apiKey.split(',').map((entry) => nodes.get(Number(entry.split(':')[0]))).filter((n) => n !== undefined);
  }, [store, apiKey]);
  const headline = backup && backupHeadline(backup);
  // Cut short at narrow widths: the title keeps the whole line.
  const backupText = headline && (
    <span className="muted" data-testid="backup" title={headline}>
      {headline}
    </span>
  );
  if (!enabled) return <div className="cluster-actions">{backupText}</div>;
  // Behind one button, so the view bar stays one row at 1280 px; the menu is there (hidden) when closed, so what it
  // offers can still be read. Choosing an action opens the confirmation dialog and closes the menu.
  const propose = (pendingAction: OperatorAction) => {
    setOpen(false);
    store.setUi({ pendingAction });
  };
  return (
    <div
      className="cluster-actions"
      onKeyDown={(e) => {
        if (e.key !== 'Escape' || !open) return;
        e.stopPropagation();
        setOpen(false);
        toggle.current?.focus();
      }}
    >
      <span className="cluster-actions-anchor">
        <button
          ref={toggle}
          type="button"
          aria-expanded={open && oldWhy === null}
          aria-controls="cluster-actions-menu"
          data-testid="cluster-actions-toggle"
          disabled={oldWhy !== null}
          title={oldWhy === null ? undefined : `Actions wait: ${oldWhy}`}
          onClick={() => setOpen(!open)}
        >
          Actions {open ? '▴' : '▾'}
        </button>
        <div className="cluster-actions-menu" id="cluster-actions-menu" data-testid="cluster-actions-menu" hidden={!open || oldWhy !== null}>
          <button type="button" onClick={() => propose({ kind: 'startBackup' })}>
            Start backup
          </button>
          {singleUser === null ? (
            <>
              {/* Only the cluster's API and SQL nodes are offered: a data node id cannot be typed in by mistake. */}
              <select aria-label="API node for single user mode" data-testid="single-user-node" value={apiNodeId} onChange={(e) => setApiNodeId(e.target.value)}>
                <option value="">API node…</option>
                {apiNodes.map((n) => (
                  <option key={n.nodeId} value={n.nodeId}>
                    API node {n.nodeId}
                    {n.status === 'CONNECTED' ? ` (${n.address ?? 'connected'})` : ' (not connected)'}
                  </option>
                ))}
              </select>
              <button type="button" disabled={apiNodeId === ''} onClick={() => propose({ kind: 'enterSingleUser', apiNodeId: Number(apiNodeId) })}>
                Single user mode…
              </button>
            </>
          ) : (
            <button type="button" onClick={() => propose({ kind: 'exitSingleUser' })}>
              Exit single user mode (API node {singleUser})
            </button>
          )}
        </div>
      </span>
      {singleUser !== null && (
        <span className="chip nav-chip" data-testid="single-user-chip" title={`single user mode: only API node ${singleUser} has access to the data`}>
          single user: API {singleUser}
        </span>
      )}
      {backupText}
    </div>
  );
}
