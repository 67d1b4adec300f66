import { useMemo } from 'react';
import { sqlCandidates } from '../../contract.js';
import { useNow } from '../../hooks/use-now.js';
import { useApp } from '../../store/use-app.js';
import { sqlSourceSummary } from '../../view-model/inside/sql-source.js';

/** The API nodes' addresses with MySQL's port: where an SQL node may be (a guess: an API node need not be a mysqld). */
export function useSqlCandidates(): string[] {
  const nodes = useApp((s) => s.shown.nodes);
  return useMemo(() => sqlCandidates([...nodes.values()]), [nodes]);
}

/** The second data source as it stands: which SQL node, what is missing, and what watching costs it. */
export function SqlSourcePanel() {
  const view = useApp((s) => s.shown.ndbinfo);
  const candidates = useSqlCandidates();
  const now = useNow();
  if (!view) {
    return (
      <section data-testid="sql-source">
        <h2>SQL source (ndbinfo)</h2>
        <p className="muted">
          None: threads, redo, transport and restart phases need one. Start ndbtop with <code>--sql mysql://USER@HOST[:PORT]</code> (the password from{' '}
          <code>--sql-password-file</code> or <code>NDBTOP_SQL_PASSWORD</code>, a read-only user on <code>ndbinfo</code> is enough), or give a connection profile its SQL nodes below.
        </p>
        {candidates.length > 0 && <p data-testid="sql-candidates">API nodes that may be SQL nodes: {candidates.join(', ')}</p>}
      </section>
    );
  }
  const s = sqlSourceSummary(view, now);
  return (
    <section data-testid="sql-source">
      <h2>
        SQL source (ndbinfo){' '}
        <span className={`conn-chip tone-${s.tone}`} data-testid="sql-source-state">
          {s.word}
        </span>
      </h2>
      <p>
        {s.where} <span className="muted">· for {s.since}</span>
      </p>
      {s.load && <p data-testid="sql-self-load">{s.load}</p>}
      {s.readings.length > 0 && <p className="muted">{s.readings.join(' · ')}</p>}
      {s.missing && <p className="muted" data-testid="sql-missing">{s.missing}</p>}
      {s.lastError && (
        <p className="tone-bad" data-testid="sql-error">
          {s.lastError}
        </p>
      )}
    </section>
  );
}
