import { focusGrid } from '../nodes/grid-focus.js';
import { useAppContext } from '../../store/use-app.js';

/**
 * The page's first tab stop, shown only when focused: past the header, alerts and views straight to the node grid
 * (otherwise some twenty tab stops come before the first node).
 */
export function SkipToNodes() {
  const { store } = useAppContext();
  return (
    <button
      type="button"
      className="skip-link"
      onClick={() => {
        store.setUi({ view: 'nodes' });
        // The grid may mount with the view switch; focus after React has rendered it.
        requestAnimationFrame(focusGrid);
      }}
    >
      Skip to the nodes
    </button>
  );
}
