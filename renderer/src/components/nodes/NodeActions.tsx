import type { NodeView, OperatorAction } from '../../contract.js';
import { useAppContext } from '../../store/use-app.js';

/** Buttons only propose: every action goes through the confirmation dialog and the engine's preview. */
export function NodeActions({ node }: { node: NodeView }) {
  const { store } = useAppContext();
  const propose = (pendingAction: OperatorAction) => store.setUi({ pendingAction });
  const running = node.status === 'STARTED' || node.status === 'STARTING';
  return (
    <div className="card-actions">
      {running && (
        <button type="button" onClick={() => propose({ kind: 'stop', nodeId: node.nodeId })}>
          Stop
        </button>
      )}
      {node.status === 'NOT_STARTED' && (
        <button type="button" onClick={() => propose({ kind: 'start', nodeId: node.nodeId })}>
          Start
        </button>
      )}
      {node.status !== 'NO_CONTACT' && (
        <button type="button" onClick={() => propose({ kind: 'restart', nodeId: node.nodeId })}>
          Restart…
        </button>
      )}
    </div>
  );
}
