import { useRef } from 'react';
import { useFocusTrap } from '../../hooks/use-focus-trap.js';
import { SHORTCUTS } from '../../keyboard.js';
import { useApp, useAppContext } from '../../store/use-app.js';

function Help() {
  const { store } = useAppContext();
  const ref = useRef<HTMLDivElement>(null);
  useFocusTrap(ref);
  const close = () => store.setUi({ helpOpen: false });
  return (
    <div className="modal-backdrop" role="presentation" onClick={close}>
      <div ref={ref} className="modal" role="dialog" aria-modal="true" aria-label="Keyboard shortcuts" data-testid="help" tabIndex={-1} onClick={(e) => e.stopPropagation()}>
        <h2>Keyboard</h2>
        <table className="keys">
          <tbody>
            {SHORTCUTS.map(([key, what]) => (
              <tr key={key}>
                <td>
                  <kbd>{key}</kbd>
                </td>
                <td>{what}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <div className="modal-buttons">
          <button type="button" onClick={close}>
            Close (Esc)
          </button>
        </div>
      </div>
    </div>
  );
}

export function HelpOverlay() {
  const open = useApp((s) => s.ui.helpOpen);
  return open ? <Help /> : null;
}
