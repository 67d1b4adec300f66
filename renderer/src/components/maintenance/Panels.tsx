import { useApp, useAppContext } from '../../store/use-app.js';
import { AlertHistoryPanel } from './AlertHistoryPanel.js';
import { MaintenancePanel } from './MaintenancePanel.js';

export function Panels() {
  const panel = useApp((s) => s.ui.panel);
  if (panel === 'maintenance') return <MaintenancePanel />;
  if (panel === 'alert-history') return <AlertHistoryPanel />;
  return null;
}


/** The panels' doors in the view bar, small: there whether or not an alert is showing. */
export function PanelLinks() {
  const { store } = useAppContext();
  return (
    <span className="panel-links">
      <button type="button" className="link" data-testid="open-maintenance" onClick={() => store.setUi({ panel: 'maintenance' })}>
        Maintenance…
      </button>
      <button type="button" className="link" data-testid="open-alert-history" onClick={() => store.setUi({ panel: 'alert-history' })}>
        Alert history
      </button>
    </span>
  );
}
