import { profileSqlUrls } from '../../view-model/inside/sql-source.js';
import { useSqlCandidates } from './SqlSourcePanel.js';

export interface SqlDraft {
  user: string;
  /** Candidate URLs (`mysql://HOST:3306`) ticked. */
  picked: readonly string[];
  /** Other SQL nodes typed whole, `mysql://USER@HOST[:PORT]`, separated by spaces or commas. */
  typed: string;
}

export const EMPTY_SQL: SqlDraft = { user: '', picked: [], typed: '' };

/** The profile's SQL nodes as the contract carries them (URLs, never a password). */
export const profileSql = (d: SqlDraft): string[] => profileSqlUrls(d.user, d.picked, d.typed);

/**
 * The profile's SQL nodes for ndbinfo: the watched cluster's API nodes are offered as candidates, so the user types
 * only the MySQL user; the password is the app's (`--sql-password-file` or NDBTOP_SQL_PASSWORD), never stored here.
 */
export function ProfileSqlFields({ draft, onChange }: { draft: SqlDraft; onChange: (d: SqlDraft) => void }) {
  const candidates = useSqlCandidates();
  const set = (patch: Partial<SqlDraft>) => onChange({ ...draft, ...patch });
  const toggle = (url: string, on: boolean) => set({ picked: on ? [...draft.picked, url] : draft.picked.filter((u) => u !== url) });
  return (
    <fieldset className="profile-sql" data-testid="profile-sql">
      <legend>SQL nodes for ndbinfo (optional)</legend>
      <input placeholder="MySQL user" size={16} title="a read-only user on ndbinfo is enough" aria-label="SQL user" value={draft.user} onChange={(e) => set({ user: e.target.value })} />
      {candidates.map((url) => (
        <label key={url}>
          <input type="checkbox" checked={draft.picked.includes(url)} onChange={(e) => toggle(url, e.target.checked)} /> {url.replace('mysql://', '')}
        </label>
      ))}
      <input placeholder="or mysql://USER@HOST[:PORT] …" aria-label="other SQL nodes" size={32} value={draft.typed} onChange={(e) => set({ typed: e.target.value })} />
    </fieldset>
  );
}
