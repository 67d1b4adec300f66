import { SHORTCUTS } from '../../keyboard.js';
import { useApp, useAppContext } from '../../store/use-app.js';
import { Panel } from './Panel.js';

function Help() {
  const { store } = useAppContext();
  return (
    <Panel title="Keyboard shortcuts" heading="Keyboard" testId="help" onClose={() => store.setUi({ helpOpen: false })}>
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
    </Panel>
  );
}

export function HelpOverlay() {
  const open = useApp((s) => s.ui.helpOpen);
  return open ? <Help /> : null;
}
