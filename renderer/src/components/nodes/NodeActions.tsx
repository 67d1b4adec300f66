import { useId } from 'react';
import type { NodeView, OperatorAction } from '../../contract.js';
import { useAppContext } from '../../store/use-app.js';

/**
 * Buttons only propose: every action goes through the confirmation dialog and the engine's preview. Each is named
 * with its node ("Stop node 3"): a list of "Stop" buttons says nothing to a screen reader. Only the grid's current
 * card's buttons are tab stops (`tabbable`).
 */
export function NodeActions({ node, tabbable, disabledWhy }: { node: NodeView; tabbable: boolean; disabledWhy: string | null }) {
  const { store } = useAppContext();
  const disabled = disabledWhy !== null;
  const propose = (pendingAction: OperatorAction) => store.setUi({ pendingAction });
  const running = node.status === 'STARTED' || node.status === 'STARTING';
  // The grid's card and the side panel's can both be on screen: an id of their own each.
  const whyId = useId();
  const named = (verb: string) => ({
    'aria-label': `${verb} node ${node.nodeId}`,
    tabIndex: tabbable ? 0 : -1,
    ...(disabled ? { title: `${verb} waits: ${disabledWhy}`, 'aria-describedby': whyId } : {}),
  });
  // On old figures an operator would act on a cluster that may no longer look like this: wait until they are fresh,
  // and say so beside the buttons (a disabled button shows no tooltip in every browser).
  return (
    <fieldset className="card-actions" disabled={disabled}>
      {running && (
        <button type="button" {...named('Stop')} onClick={() => propose({ kind: 'stop', nodeId: node.nodeId })}>
          Stop
        </button>
      )}
      {node.status === 'NOT_STARTED' && (
        <button type="button" {...named('Start')} onClick={() => propose({ kind: 'start', nodeId: node.nodeId })}>
          Start
        </button>
      )}
      {node.status !== 'NO_CONTACT' && (
        <button type="button" {...named('Restart')} onClick={() => propose({ kind: 'restart', nodeId: node.nodeId })}>
          Restart…
        </button>
      )}
      {disabled && node.status !== 'NO_CONTACT' && (
        <span className="actions-why" id={whyId} data-testid="actions-why" title={disabledWhy}>
          {disabledWhy}
        </span>
      )}
    </fieldset>
  );
}
