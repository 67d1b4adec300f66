import { useEffect, useState, type FormEvent } from 'react';
import { DEFAULT_FAILOVER, FAILOVER_POLICIES, type ProfileView, type Settings } from '../contract.js';
import { DENSITIES } from '../store/ui-prefs.js';
import { describeTls, EMPTY_TLS, ProfileTlsFields, profileTls, tlsDraft, type TlsDraft } from '../components/dialogs/ProfileTlsFields.js';
import { ProfileSqlFields, type SqlDraft, EMPTY_SQL, profileSql, sqlDraft } from '../components/settings/ProfileSqlFields.js';
import { ProfileSqlPassword } from '../components/settings/ProfileSqlPassword.js';
import { SqlSourcePanel } from '../components/settings/SqlSourcePanel.js';
import { THEMES } from '../store/ui-slice.js';
import { useApp, useAppContext } from '../store/use-app.js';
import { clusterFacts } from '../view-model/nodes/cluster-facts.js';

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Serve mode refuses changes from browsers unless started with --allow-changes; the desktop always allows them. */
const useChangesEnabled = (): boolean => useApp((s) => s.appInfo?.changesEnabled !== false);

function SettingsForm() {
  const { api, store } = useAppContext();
  const changes = useChangesEnabled();
  const [settings, setSettings] = useState<Settings | null>(null);
  const [saved, setSaved] = useState('');
  useEffect(() => {
    api.getSettings({}).then(setSettings, (err: unknown) => store.setUi({ error: errorText(err) }));
  }, [api, store]);
  if (!settings) return <p className="muted">Loading settings…</p>;
  const save = async (patch: Partial<Settings>) => {
    try {
      const next = await api.updateSettings(patch);
      setSettings(next);
      setSaved('saved');
    } catch (err) {
      setSaved(`not saved: ${errorText(err)}`);
    }
  };
  return (
    <form className="settings-form" onSubmit={(e) => e.preventDefault()}>
      {!changes && (
        <p className="muted" data-testid="changes-disabled">
          Read-only: this server does not let viewers change settings, clusters or profiles (ndbtop serve --allow-changes).
        </p>
      )}
      <fieldset disabled={!changes} style={{ border: 0, padding: 0, margin: 0, display: "contents" }}>
      <label>
        Poll interval (ms)
        <input type="number" min={100} max={60000} step={100} defaultValue={settings.pollIntervalMs} onBlur={(e) => void save({ pollIntervalMs: Number(e.target.value) })} />
      </label>
      <label>
        History length (s)
        <input type="number" min={60} max={86400} step={60} defaultValue={settings.historySeconds} onBlur={(e) => void save({ historySeconds: Number(e.target.value) })} />
      </label>
      <label>
        Warn of TLS certificates expiring within (days)
        <input type="number" min={0} max={3650} defaultValue={settings.certExpiryWarnDays ?? 30} onBlur={(e) => void save({ certExpiryWarnDays: Number(e.target.value) })} />
      </label>
      <label>
        Failover
        <select
          value={settings.failover ?? DEFAULT_FAILOVER}
          data-testid="failover"
          onChange={(e) => void save({ failover: FAILOVER_POLICIES.find((p) => p === e.target.value) ?? DEFAULT_FAILOVER })}
        >
          <option value="from-config">also to management servers the configuration lists</option>
          <option value="connectstring-only">only to the connectstring&apos;s management servers</option>
        </select>
      </label>
      <label>
        <input type="checkbox" checked={settings.notifications} onChange={(e) => void save({ notifications: e.target.checked })} /> Desktop notifications for alerts
      </label>
      </fieldset>
      <span className="muted">{saved}</span>
    </form>
  );
}

/** A display preference of this screen, not an engine setting: kept in the UI store (and the browser's storage). */
function DensityPicker() {
  const { store } = useAppContext();
  const density = useApp((s) => s.ui.density);
  return (
    <label>
      Node grid density
      <select value={density} data-testid="density" onChange={(e) => store.setUi({ density: DENSITIES.find((d) => d === e.target.value) ?? 'auto' })}>
        <option value="auto">auto (the most detail at which every data node fits)</option>
        <option value="comfortable">comfortable (cards)</option>
        <option value="compact">compact (tiles)</option>
        <option value="dense">dense (small tiles)</option>
      </select>
    </label>
  );
}

/** Like the density, the theme is this screen's: a wall display and a laptop on the same serve process differ. */
function ThemePicker() {
  const { store } = useAppContext();
  const theme = useApp((s) => s.ui.theme);
  return (
    <label>
      Theme
      <select value={theme} data-testid="theme" onChange={(e) => store.setUi({ theme: THEMES.find((t) => t === e.target.value) ?? 'system' })}>
        <option value="system">system (follow the browser)</option>
        <option value="dark">dark</option>
        <option value="light">light</option>
      </select>
    </label>
  );
}

function Profiles() {
  const { api, store, selectCluster } = useAppContext();
  const changes = useChangesEnabled();
  const clusters = useApp((s) => s.clusters);
  const [profiles, setProfiles] = useState<ProfileView[]>([]);
  const [name, setName] = useState('');
  const [connectstring, setConnectstring] = useState('');
  const [tls, setTls] = useState<TlsDraft>(EMPTY_TLS);
  const [sql, setSql] = useState<SqlDraft>(EMPTY_SQL);
  const [refused, setRefused] = useState<string | null>(null);
  /** The saved profile the form edits (saved again under its id), or null: the form makes a new one. */
  const [editing, setEditing] = useState<ProfileView | null>(null);
  const current = useApp((s) => s.live.clusterId);
  const fill = (p: ProfileView | null) => {
    setEditing(p);
    setName(p?.name ?? '');
    setConnectstring(p?.connectstring ?? '');
    setTls(tlsDraft(p?.tls));
    setSql(sqlDraft(p?.sql));
    setRefused(null);
  };
  useEffect(() => {
    api.listProfiles({}).then(setProfiles, (err: unknown) => store.setUi({ error: errorText(err) }));
  }, [api, store]);
  const add = async (e: FormEvent) => {
    e.preventDefault();
    try {
      const secured = profileTls(tls);
      const sqlNodes = profileSql(sql);
      const password = sql.password === '' ? {} : { sqlPassword: { set: sql.password } };
      setProfiles(await api.saveProfile({ id: editing?.id ?? `${Date.now()}`, name, connectstring, ...(secured ? { tls: secured } : {}), ...(sqlNodes.length > 0 ? { sql: sqlNodes } : {}), ...password }));
      fill(null);
    } catch (err) {
      // The engine's parser says what is wrong; shown beside the form, which keeps what was typed.
      setRefused(errorText(err).replace(/^INVALID: /, ''));
    }
  };
  const remove = async (clusterId: string) => {
    try {
      await api.removeCluster({ clusterId });
      // Showing a cluster that is no longer watched would freeze on its last picture: show another one.
      const other = clusters.find((c) => c.clusterId !== clusterId);
      if (clusterId === current && other) await selectCluster(other.clusterId);
    } catch (err) {
      store.setUi({ error: errorText(err) });
    }
  };
  // Watching a profile also shows it: that is what the operator asked for by clicking.
  const open = (p: ProfileView) =>
    api
      .addCluster({ name: p.name, connectstring: p.connectstring, profileId: p.id, ...(p.tls ? { tls: p.tls } : {}), ...(p.sql ? { sql: p.sql } : {}) })
      .then((c) => selectCluster(c.clusterId))
      .catch((err: unknown) => store.setUi({ error: errorText(err) }));
  return (
    <>
      <h2>Clusters being watched</h2>
      <ul className="plain">
        {clusters.map((c) => (
          <li key={c.clusterId}>
            <strong>{c.name}</strong> {clusterFacts(c)}{' '}
            <button type="button" data-testid={`show-cluster-${c.name}`} onClick={() => void selectCluster(c.clusterId)}>
              Show
            </button>{' '}
            <button type="button" data-testid={`remove-cluster-${c.name}`} onClick={() => void remove(c.clusterId)}>
              Stop watching
            </button>
          </li>
        ))}
      </ul>
      <h2>Connection profiles</h2>
      <ul className="plain">
        {profiles.map((p) => (
          <li key={p.id}>
            <strong>{p.name}</strong> {p.connectstring} <span className="muted">{describeTls(p.tls)}</span>{' '}
            {p.sql && p.sql.length > 0 && <span className="muted">· SQL {p.sql.join(', ')}</span>}{' '}
            {p.sql && p.sql.length > 0 && <ProfileSqlPassword profile={p} changes={changes} onSaved={setProfiles} />}{' '}
            {changes && (
              <>
                <button type="button" data-testid={`watch-profile-${p.name}`} onClick={() => void open(p)}>
                  Watch
                </button>{' '}
                <button type="button" data-testid={`edit-profile-${p.name}`} aria-label={`Edit profile ${p.name}`} onClick={() => fill(p)}>
                  Edit
                </button>{' '}
                <button type="button" onClick={() => void api.deleteProfile({ id: p.id }).then(setProfiles)}>
                  Delete
                </button>
              </>
            )}
          </li>
        ))}
      </ul>
      {changes && (
        <form className="settings-form" onSubmit={(e) => void add(e)}>
          <input required placeholder="name" size={16} value={name} onChange={(e) => setName(e.target.value)} aria-label="profile name" />
          <input required placeholder="host:1186,host2:1186" size={32} value={connectstring} onChange={(e) => setConnectstring(e.target.value)} aria-label="connect string" />
          <ProfileTlsFields draft={tls} onChange={setTls} />
          <ProfileSqlFields draft={sql} onChange={setSql} keep={editing?.hasSqlPassword === true} />
          <button type="submit" data-testid="profile-save">{editing ? `Save ${editing.name}` : 'Save profile'}</button>
          {editing && (
            <button type="button" onClick={() => fill(null)}>
              Cancel
            </button>
          )}
        </form>
      )}
      {refused && (
        <p className="tone-bad" role="alert" data-testid="profile-error">
          {refused}
        </p>
      )}
    </>
  );
}

export function SettingsView() {
  return (
    <div className="view settings-view">
      <h2>Settings</h2>
      <SettingsForm />
      <div className="settings-form">
        <ThemePicker />
        <DensityPicker />
      </div>
      <SqlSourcePanel />
      <Profiles />
    </div>
  );
}
