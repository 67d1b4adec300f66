import { useApp, useAppContext } from '../../store/use-app.js';
import { AlertHistoryPanel } from './AlertHistoryPanel.js';
import { MaintenancePanel } from './MaintenancePanel.js';

export function Panels() {
  const panel = useApp((s) => s.ui.panel);
  if (panel === 'maintenance') return <MaintenancePanel />;
  if (panel === 'alert-history') return <AlertHistoryPanel />;
  return null;
}

/** The two panels' doors where the operator looks for them: the view bar. */
export function PanelButtons() {
  const { store } = useAppContext();
  return (
    <>
      <button type="button" data-testid="open-maintenance" onClick={() => store.setUi({ panel: 'maintenance' })}>
        Maintenance…
      </button>
      <button type="button" data-testid="open-alert-history" onClick={() => store.setUi({ panel: 'alert-history' })}>
        Alert history
      </button>
    </>
  );
}
