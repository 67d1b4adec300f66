import { SHORTCUTS } from '../keyboard.js';
import { useApp, useAppContext } from '../store/use-app.js';

export function HelpOverlay() {
  const { store } = useAppContext();
  const open = useApp((s) => s.ui.helpOpen);
  if (!open) return null;
  return (
    <div className="modal-backdrop" role="presentation" onClick={() => store.setUi({ helpOpen: false })}>
      <div className="modal" role="dialog" aria-label="Keyboard shortcuts" data-testid="help">
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
      </div>
    </div>
  );
}
