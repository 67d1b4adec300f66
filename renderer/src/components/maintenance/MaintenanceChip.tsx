import { useNow } from '../../hooks/use-now.js';
import { useApp, useAppContext } from '../../store/use-app.js';
import { openWindows } from '../../view-model/alerts/maintenance.js';
import { formatDuration } from '../../view-model/format.js';

/**
 * In the header while a maintenance window is open (also in dashboard mode): what is going on, so nobody reads the
 * quiet banners as a quiet cluster. A click opens the windows.
 */
export function MaintenanceChip() {
  const { store } = useAppContext();
  const windows = useApp((s) => s.live.maintenance);
  const now = useNow();
  const open = openWindows(windows, now);
  const first = open[0];
  if (!first) return null;
  const left = first.until === null ? '' : ` · ${formatDuration(first.until - now)} left`;
  return (
    <button type="button" className="maintenance-chip" data-testid="maintenance-chip" data-count={open.length} title="maintenance windows" onClick={() => store.setUi({ panel: 'maintenance' })}>
      MAINTENANCE · {first.reason}
      {left}
      {open.length > 1 && ` (+${open.length - 1})`}
    </button>
  );
}
