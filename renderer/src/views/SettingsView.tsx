import { useEffect, useState, type FormEvent } from 'react';
import type { Profile, Settings } from '../contract.js';
import { DENSITIES } from '../store/ui-prefs.js';
import { describeTls, EMPTY_TLS, ProfileTlsFields, profileTls, type TlsDraft } from '../components/ProfileTlsFields.js';
import { useApp, useAppContext } from '../store/use-app.js';

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function SettingsForm() {
  const { api, store } = useAppContext();
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
      if (next.theme !== 'system') store.setUi({ theme: next.theme });
      setSaved('saved');
    } catch (err) {
      setSaved(`not saved: ${errorText(err)}`);
    }
  };
  return (
    <form className="settings-form" onSubmit={(e) => e.preventDefault()}>
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
        <input type="checkbox" checked={settings.notifications} onChange={(e) => void save({ notifications: e.target.checked })} /> Desktop notifications for alerts
      </label>
      <label>
        Theme
        <select value={settings.theme} data-testid="theme" onChange={(e) => void save({ theme: e.target.value as Settings['theme'] })}>
          <option value="dark">dark</option>
          <option value="light">light</option>
          <option value="system">system</option>
        </select>
      </label>
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
        <option value="auto">auto (tiles when the data nodes do not fit as cards)</option>
        <option value="comfortable">comfortable (cards)</option>
        <option value="compact">compact (tiles)</option>
      </select>
    </label>
  );
}

function Profiles() {
  const { api, store, selectCluster } = useAppContext();
  const clusters = useApp((s) => s.clusters);
  const [profiles, setProfiles] = useState<Profile[]>([]);
  const [name, setName] = useState('');
  const [connectstring, setConnectstring] = useState('');
  const [tls, setTls] = useState<TlsDraft>(EMPTY_TLS);
  useEffect(() => {
    api.listProfiles({}).then(setProfiles, (err: unknown) => store.setUi({ error: errorText(err) }));
  }, [api, store]);
  const add = async (e: FormEvent) => {
    e.preventDefault();
    try {
      const secured = profileTls(tls);
      setProfiles(await api.saveProfile({ id: `${Date.now()}`, name, connectstring, ...(secured ? { tls: secured } : {}) }));
      setName('');
      setConnectstring('');
      setTls(EMPTY_TLS);
    } catch (err) {
      store.setUi({ error: errorText(err) });
    }
  };
  // Watching a profile also shows it: that is what the operator asked for by clicking.
  const open = (p: Profile) =>
    api
      .addCluster({ name: p.name, connectstring: p.connectstring, ...(p.tls ? { tls: p.tls } : {}) })
      .then((c) => selectCluster(c.clusterId))
      .catch((err: unknown) => store.setUi({ error: errorText(err) }));
  return (
    <>
      <h2>Clusters being watched</h2>
      <ul className="plain">
        {clusters.map((c) => (
          <li key={c.clusterId}>
            <strong>{c.name}</strong> {c.connectstring} · {c.mode} · {c.status}{' '}
            <button type="button" data-testid={`show-cluster-${c.name}`} onClick={() => void selectCluster(c.clusterId)}>
              Show
            </button>
          </li>
        ))}
      </ul>
      <h2>Connection profiles</h2>
      <ul className="plain">
        {profiles.map((p) => (
          <li key={p.id}>
            <strong>{p.name}</strong> {p.connectstring} <span className="muted">{describeTls(p.tls)}</span>{' '}
            <button type="button" data-testid={`watch-profile-${p.name}`} onClick={() => void open(p)}>
              Watch
            </button>{' '}
            <button type="button" onClick={() => void api.deleteProfile({ id: p.id }).then(setProfiles)}>
              Delete
            </button>
          </li>
        ))}
      </ul>
      <form className="settings-form" onSubmit={(e) => void add(e)}>
        <input required placeholder="name" value={name} onChange={(e) => setName(e.target.value)} aria-label="profile name" />
        <input required placeholder="host:1186,host2:1186" value={connectstring} onChange={(e) => setConnectstring(e.target.value)} aria-label="connect string" />
        <ProfileTlsFields draft={tls} onChange={setTls} />
        <button type="submit">Save profile</button>
      </form>
    </>
  );
}

export function SettingsView() {
  return (
    <div className="view settings-view">
      <h2>Settings</h2>
      <SettingsForm />
      <div className="settings-form">
        <DensityPicker />
      </div>
      <Profiles />
    </div>
  );
}
