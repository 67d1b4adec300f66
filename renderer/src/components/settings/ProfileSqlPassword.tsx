import type { ProfileView } from '../../contract.js';
import { useAppContext } from '../../store/use-app.js';

/**
 * What a saved profile's SQL password is: "stored in the OS keychain" (with Clear, which forgets it) or, without
 * one, where it comes from. The page only ever learns `hasSqlPassword`.
 */
export function ProfileSqlPassword({ profile, changes, onSaved }: { profile: ProfileView; changes: boolean; onSaved: (profiles: ProfileView[]) => void }) {
  const { api, store } = useAppContext();
  if (!profile.hasSqlPassword) return <span className="muted">· SQL password from NDBTOP_SQL_PASSWORD or --sql-password-file</span>;
  const { hasSqlPassword: _stored, ...saved } = profile;
  const clear = () =>
    api
      .saveProfile({ ...saved, sqlPassword: { clear: true } })
      .then(onSaved)
      .catch((err: unknown) => store.setUi({ error: err instanceof Error ? err.message : String(err) }));
  return (
    <span className="muted" data-testid={`profile-sql-password-${profile.name}`}>
      · SQL password stored in the OS keychain{' '}
      {changes && (
        <button type="button" aria-label={`Clear the SQL password of ${profile.name}`} onClick={() => void clear()}>
          Clear
        </button>
      )}
    </span>
  );
}
