import type { EngineHandlers } from '../../../contract/page-safe/api.js';
import type { Profile, ProfileView } from '../../../contract/schemas/settings.js';
import type { EngineCore } from '../../core/engine-core.js';
import { EngineRequestError } from '../../core/engine-error.js';
import { checkConnectstring } from '../../core/input/connectstring-check.js';

/** The secret store's key of a profile's SQL password. */
const passwordId = (profileId: string): string => `sql-password:${profileId}`;

const sameNodes = (a: readonly string[] = [], b: readonly string[] = []): boolean => a.length === b.length && a.every((url, i) => url === b[i]);

type ProfileHandlers = Pick<EngineHandlers, 'addCluster' | 'listProfiles' | 'saveProfile' | 'deleteProfile'>;

/**
 * Connection profiles and watching one. A profile's SQL password crosses the contract only towards the engine
 * (`saveProfile`'s `sqlPassword`); answers say only `hasSqlPassword`. It is kept by the engine's secret store (the
 * desktop's OS keychain; elsewhere there is none and saving one is refused), decrypted when the profile's cluster is
 * added, and goes only to the SQL nodes saved with it.
 */
export function profileHandlers(engine: EngineCore): ProfileHandlers {
  const { settings, secrets } = engine;
  const view = (p: Profile): ProfileView => ({ ...p, hasSqlPassword: secrets.has(passwordId(p.id)) });
  const views = (): ProfileView[] => settings.listProfiles().map(view);
  const saved = (id: string): Profile | undefined => settings.listProfiles().find((p) => p.id === id);
  return {
    addCluster: async ({ name, connectstring, tls, sql, profileId }) => {
      checkConnectstring(connectstring);
      let stored: string | undefined;
      if (profileId !== undefined) {
        const profile = saved(profileId);
        if (!profile) throw new EngineRequestError('NOT_FOUND', `no profile with id ${JSON.stringify(profileId)}`);
        if (!sameNodes(sql, profile.sql)) throw new EngineRequestError('INVALID', "the SQL nodes differ from the profile's: its stored password goes only to the SQL nodes saved with it");
        stored = await secrets.get(passwordId(profileId));
      }
      return engine.connectCluster(name, connectstring, tls, sql, stored);
    },
    listProfiles: async () => views(),
    saveProfile: async ({ sqlPassword, ...profile }) => {
      checkConnectstring(profile.connectstring);
      if (sqlPassword && 'set' in sqlPassword) {
        if ((profile.sql ?? []).length === 0) throw new EngineRequestError('INVALID', 'an SQL password needs the SQL nodes it is for');
        await secrets.set(passwordId(profile.id), sqlPassword.set);
      } else if (sqlPassword?.clear || !sameNodes(profile.sql, saved(profile.id)?.sql)) {
        // A password typed for some SQL nodes is not sent to others the profile is changed to name.
        secrets.delete(passwordId(profile.id));
      }
      settings.saveProfile(profile);
      return views();
    },
    deleteProfile: async ({ id }) => {
      secrets.delete(passwordId(id));
      settings.deleteProfile(id);
      return views();
    },
  };
}
