import type { CertView, TlsView as Tls } from '../contract.js';
import { useNow } from '../hooks/use-now.js';
import { useApp } from '../store/use-app.js';
import { formatClock } from '../view-model/format.js';
import { daysLeft, expiryTone, isoDate, tlsState } from '../view-model/tls.js';

function Cert({ title, cert, warnDays, testId }: { title: string; cert: CertView | null; warnDays: number; testId: string }) {
  const now = useNow();
  if (!cert) return null;
  const days = daysLeft(cert, now);
  return (
    <section data-testid={testId}>
      <h3>{title}</h3>
      <dl className="kv">
        <dt>subject</dt>
        <dd data-field="subject">{cert.subject}</dd>
        <dt>issuer</dt>
        <dd data-field="issuer">{cert.issuer}</dd>
        <dt>serial</dt>
        <dd data-field="serial">{cert.serial}</dd>
        <dt>valid</dt>
        <dd>
          {isoDate(cert.validFrom)} to{' '}
          <span className={`tone-${expiryTone(cert, warnDays, now)}`} data-field="expires">
            {isoDate(cert.validTo)} ({days < 0 ? 'expired' : `${days} days left`})
          </span>
        </dd>
        <dt>bound to</dt>
        <dd>{cert.hostnames.length > 0 ? cert.hostnames.join(', ') : 'any host'}</dd>
      </dl>
    </section>
  );
}

function Diagnostics({ tls }: { tls: Tls }) {
  if (!tls.stats) return <p className="muted">No TLS counters yet: they are read from a TLS session, every 30 s.</p>;
  const s = tls.stats;
  return (
    <section data-testid="tls-stats">
      <h3>Management server TLS counters {tls.statsAt !== null && <span className="muted">(read {formatClock(tls.statsAt)})</span>}</h3>
      <dl className="kv">
        <dt>connections accepted</dt>
        <dd data-field="accepted">{s.accepted}</dd>
        <dt>upgraded to TLS</dt>
        <dd data-field="upgraded">{s.upgraded}</dd>
        <dt>sessions now / with TLS</dt>
        <dd data-field="current">
          {s.current} / {s.tls}
        </dd>
        <dt>refused for want of TLS</dt>
        <dd data-field="authfail">{s.authfail}</dd>
      </dl>
      <h3>Client certificates in use</h3>
      <table className="plain-table" data-testid="tls-certs">
        <thead>
          <tr>
            <th>session</th>
            <th>address</th>
            <th>name</th>
            <th>serial</th>
            <th>expires</th>
          </tr>
        </thead>
        <tbody>
          {tls.certs.map((c) => (
            <tr key={c.session}>
              <td>{c.session}</td>
              <td>{c.address}</td>
              <td>{c.name}</td>
              <td>{c.serial}</td>
              <td>{c.expires}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** The TLS panel: how the management connection is secured, both certificates, and the server's TLS view. */
export function TlsView() {
  const tls = useApp((s) => s.live.connection?.tls ?? null);
  if (!tls || tls.mode === 'off') return <div className="view">TLS is not configured for this cluster (--ndb-mgm-tls, --ndb-tls-search-path, or the profile in Settings).</div>;
  const state = tlsState(tls);
  return (
    <div className="view tls-view" data-testid="tls-view">
      <h2>TLS</h2>
      <p data-testid="tls-summary" data-state={state}>
        {state === 'tls' && `Secured with ${tls.protocol ?? 'TLS'} (--ndb-mgm-tls=${tls.mode}).`}
        {state === 'clear' && `Clear text: ${tls.clearTextReason ?? 'no TLS'} (--ndb-mgm-tls=${tls.mode}).`}
        {state === 'error' && <span className="tone-bad">{tls.problem}</span>}
      </p>
      <Cert title="Management server certificate" cert={tls.server} warnDays={tls.expiryWarnDays} testId="tls-server-cert" />
      <Cert title="ndbtop client certificate" cert={tls.client} warnDays={tls.expiryWarnDays} testId="tls-client-cert" />
      <Diagnostics tls={tls} />
    </div>
  );
}
