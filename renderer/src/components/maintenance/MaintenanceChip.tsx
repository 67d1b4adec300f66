import { useNow } from '../../hooks/use-now.js';
import { useApp, useAppContext } from '../../store/use-app.js';
import { criticalSilence, criticalSilenceText, openWindows } from '../../view-model/alerts/maintenance.js';
import { formatDuration } from '../../view-model/format.js';

/**
 * In the header while a maintenance window is open (also in dashboard mode): what is going on, so nobody reads the
 * quiet banners as a quiet cluster; while one silences critical alerts, it says so first, by whom and until when.
 * A click opens the windows.
 */
export function MaintenanceChip() {
  const { store } = useAppContext();
  const windows = useApp((s) => s.live.maintenance);
  const now = useNow();
  const open = openWindows(windows, now);
  const critical = criticalSilence(windows, now);
  const first = critical ?? open[0];
  if (!first) return null;
  const left = first.until === null ? '' : ` · ${formatDuration(first.until - now)} left`;
  const warning = critical ? criticalSilenceText(critical) : null;
  // The critical warning leads: the chip is cut short on a narrow header, never that.
  return (
    <button
      type="button"
      className={`maintenance-chip${warning ? ' critical' : ''}`}
      data-testid="maintenance-chip"
      data-count={open.length}
      title={warning ?? 'maintenance windows'}
      onClick={() => store.setUi({ panel: 'maintenance' })}
    >
      {warning && <strong data-testid="maintenance-critical-silenced">{warning} · </strong>}
      MAINTENANCE · {first.reason}
      {left}
      {open.length > 1 && ` (+${open.length - 1})`}
    </button>
  );
}
