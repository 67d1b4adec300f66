import { profileSqlUrls } from '../../view-model/inside/sql-source.js';
import { useApp } from '../../store/use-app.js';
import { useSqlCandidates } from './SqlSourcePanel.js';

export interface SqlDraft {
  user: string;
  /** Candidate URLs (`mysql://HOST:3306`) ticked. */
  picked: readonly string[];
  /** Other SQL nodes typed whole, `mysql://USER@HOST[:PORT]`, separated by spaces or commas. */
  typed: string;
  /** Sent once with the profile (write-only), kept by the engine's OS keychain; empty: leave it as it is. */
  password: string;
}

export const EMPTY_SQL: SqlDraft = { user: '', picked: [], typed: '', password: '' };

/** A saved profile's SQL nodes back in the form (typed whole, so each URL keeps its own user), to edit it. */
export const sqlDraft = (urls: readonly string[] | undefined): SqlDraft => ({ ...EMPTY_SQL, typed: (urls ?? []).join(' ') });

/** The profile's SQL nodes as the contract carries them (URLs, never a password). */
export const profileSql = (d: SqlDraft): string[] => profileSqlUrls(d.user, d.picked, d.typed);

/** Whether the engine can keep a profile's SQL password (the desktop's OS keychain; serve mode has none). */
export const useSqlPasswordStore = (): boolean => useApp((s) => s.appInfo?.sqlPasswordStore === 'os-keychain');

export const NO_KEYCHAIN_TEXT = 'The SQL password comes from NDBTOP_SQL_PASSWORD or --sql-password-file (no OS keychain here to keep one).';

/**
 * The profile's SQL nodes for ndbinfo: the watched cluster's API nodes are offered as candidates, so the user types
 * only the MySQL user and, on the desktop, the password once (encrypted by the OS keychain; the page never reads it
 * back). Without a keychain the field is off and says where the password comes from instead. `keep`: the profile
 * being edited has a stored password, which an empty field leaves as it is.
 */
export function ProfileSqlFields({ draft, onChange, keep = false }: { draft: SqlDraft; onChange: (d: SqlDraft) => void; keep?: boolean }) {
  const candidates = useSqlCandidates();
  const keychain = useSqlPasswordStore();
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
      <input
        type="password"
        autoComplete="off"
        placeholder={keep ? 'SQL password (empty: keep)' : 'SQL password'}
        size={16}
        aria-label="SQL password"
        aria-describedby="profile-sql-password-note"
        data-testid="profile-sql-password"
        disabled={!keychain}
        value={keychain ? draft.password : ''}
        onChange={(e) => set({ password: e.target.value })}
      />
      <span id="profile-sql-password-note" className="muted" data-testid="profile-sql-password-note">
        {keychain ? 'kept encrypted by the OS keychain, never shown again' : NO_KEYCHAIN_TEXT}
      </span>
    </fieldset>
  );
}
