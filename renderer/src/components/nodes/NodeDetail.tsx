import { useApp, useAppContext } from '../../store/use-app.js';
import { NodeCard } from './NodeCard.js';

/** The full card of the node picked on a compact tile, with its operator actions, beside the grid. */
export function NodeDetail() {
  const { store } = useAppContext();
  const nodeId = useApp((s) => s.ui.selectedNodeId);
  if (nodeId === null) return null;
  return (
    <aside className="node-detail" aria-label={`node ${nodeId} details`}>
      <div className="node-detail-head">
        <strong>Node {nodeId}</strong>
        <button type="button" aria-label="close details" onClick={() => store.setUi({ selectedNodeId: null })}>
          Close (Esc)
        </button>
      </div>
      <NodeCard nodeId={nodeId} detail />
    </aside>
  );
}
