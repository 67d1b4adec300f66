import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TlsView } from '../contract.js';
import { describeTls, EMPTY_TLS, profileTls } from '../components/dialogs/ProfileTlsFields.js';
import { daysLeft, expiryTone, tlsState, tlsTitle } from '../view-model/tls.js';

const DAY = 24 * 3600 * 1000;
const now = Date.UTC(2026, 5, 1);
const cert = { subject: 'CN=NDB Management Node Jun 2026', issuer: 'CN=MySQL NDB Cluster First Certificate', serial: 'AB12', validFrom: now - DAY, validTo: now + 20 * DAY, hostnames: ['mgm1'] };
const base: TlsView = { mode: 'strict', secured: true, clearTextReason: null, protocol: 'TLSv1.3', server: cert, client: null, problem: null, expiryWarnDays: 30, stats: null, certs: [], statsAt: null };

test('the TLS badge: TLS, clear text with its reason, a standing failure outranks both, nothing when not configured', () => {
  assert.equal(tlsState(base), 'tls');
  assert.match(tlsTitle(base), /TLSv1\.3 · server CN=NDB Management Node .* serial AB12 · expires 2026-06-21/);
  const clear = { ...base, mode: 'relaxed' as const, secured: false, server: null, clearTextReason: 'server has no TLS keys' };
  assert.equal(tlsState(clear), 'clear');
  assert.match(tlsTitle(clear), /clear text \(server has no TLS keys\); --ndb-mgm-tls=relaxed/);
  const failing = { ...base, problem: 'the certificate of management server 10.0.0.1:1186 has expired' };
  assert.equal(tlsState(failing), 'error');
  assert.equal(tlsTitle(failing), failing.problem);
  assert.equal(tlsState({ ...base, mode: 'off' }), 'off');
  assert.equal(tlsState(undefined), 'off');
});

test('certificate expiry in the TLS view: days left and the warning tone follow the window', () => {
  assert.equal(daysLeft(cert, now), 20);
  assert.equal(expiryTone(cert, 30, now), 'warn');
  assert.equal(expiryTone(cert, 10, now), 'ok');
  assert.equal(expiryTone(cert, 30, now + 21 * DAY), 'bad');
});

test('a profile keeps only the TLS it was given', () => {
  assert.equal(profileTls(EMPTY_TLS), undefined);
  assert.deepEqual(profileTls({ ...EMPTY_TLS, mode: 'strict', searchPath: ' /etc/ndb-tls ', certFile: '' }), { mode: 'strict', searchPath: '/etc/ndb-tls' });
  assert.equal(describeTls({ mode: 'relaxed', searchPath: '$HOME/ndb-tls' }), 'TLS relaxed · $HOME/ndb-tls');
  assert.equal(describeTls(undefined), '');
});
