import type { ProfileTls } from '../../contract.js';

export type TlsChoice = 'off' | ProfileTls['mode'];

export interface TlsDraft {
  mode: TlsChoice;
  searchPath: string;
  caFile: string;
  certFile: string;
  keyFile: string;
}

export const EMPTY_TLS: TlsDraft = { mode: 'off', searchPath: '', caFile: '', certFile: '', keyFile: '' };

/** The profile's TLS as the contract carries it: nothing for `off`, blank fields left out. */
export function profileTls(d: TlsDraft): ProfileTls | undefined {
  if (d.mode === 'off') return undefined;
  const opt = (k: 'searchPath' | 'caFile' | 'certFile' | 'keyFile') => (d[k].trim() !== '' ? { [k]: d[k].trim() } : {});
  return { mode: d.mode, ...opt('searchPath'), ...opt('caFile'), ...opt('certFile'), ...opt('keyFile') };
}

/** A saved profile's TLS back in the form, to edit it. */
export function tlsDraft(tls: ProfileTls | undefined): TlsDraft {
  if (!tls) return EMPTY_TLS;
  return { mode: tls.mode, searchPath: tls.searchPath ?? '', caFile: tls.caFile ?? '', certFile: tls.certFile ?? '', keyFile: tls.keyFile ?? '' };
}

export function describeTls(tls: ProfileTls | undefined): string {
  if (!tls) return '';
  return `TLS ${tls.mode}${tls.searchPath ? ` · ${tls.searchPath}` : ''}${tls.certFile ? ` · ${tls.certFile}` : ''}`;
}

/** The connection profile's TLS, as NDB tools take it (--ndb-mgm-tls, --ndb-tls-search-path, own PKI files). */
export function ProfileTlsFields({ draft, onChange }: { draft: TlsDraft; onChange: (d: TlsDraft) => void }) {
  const set = (patch: Partial<TlsDraft>) => onChange({ ...draft, ...patch });
  return (
    <>
      <select aria-label="TLS" data-testid="profile-tls" value={draft.mode} onChange={(e) => set({ mode: e.target.value as TlsChoice })}>
        <option value="off">no TLS</option>
        <option value="relaxed">TLS relaxed</option>
        <option value="strict">TLS strict</option>
      </select>
      {draft.mode !== 'off' && (
        <>
          <input placeholder="TLS search path ($HOME/ndb-tls)" aria-label="TLS search path" value={draft.searchPath} onChange={(e) => set({ searchPath: e.target.value })} />
          <input placeholder="CA file (optional)" aria-label="TLS CA file" value={draft.caFile} onChange={(e) => set({ caFile: e.target.value })} />
          <input placeholder="certificate file (optional)" aria-label="TLS certificate file" value={draft.certFile} onChange={(e) => set({ certFile: e.target.value })} />
          <input placeholder="key file (optional)" aria-label="TLS key file" value={draft.keyFile} onChange={(e) => set({ keyFile: e.target.value })} />
        </>
      )}
    </>
  );
}
