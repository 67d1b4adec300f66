import { useApp } from '../../store/use-app.js';
import { AlertHistoryPanel } from './AlertHistoryPanel.js';
import { MaintenancePanel } from './MaintenancePanel.js';

export function Panels() {
  const panel = useApp((s) => s.ui.panel);
  if (panel === 'maintenance') return <MaintenancePanel />;
  if (panel === 'alert-history') return <AlertHistoryPanel />;
  return null;
}

