import { useApp } from '../../store/use-app.js';
import { sqlSourceSummary } from '../../view-model/inside/sql-source.js';

/**
 * Beside the management server's chip: the SQL source (ndbinfo) when it is not up, with its last error, so a source
 * whose readings fail is seen without opening Settings. Live, as the connection chip: pausing must not hide it.
 */
export function SqlSourceBadge() {
  const view = useApp((s) => s.live.ndbinfo);
  if (!view || view.source.status === 'up') return null;
  const s = sqlSourceSummary(view, view.source.since);
  return (
    // The header says the state's first words ("SQL LOST"); the rest ("— RETRYING") and the error are on hover.
    <span className={`tls-badge tone-${s.tone}`} data-testid="sql-source-badge" data-state={view.source.status} title={`SQL ${s.word}: ${s.lastError ?? s.where}`}>
      SQL {s.word.split(' — ')[0]}
    </span>
  );
}
