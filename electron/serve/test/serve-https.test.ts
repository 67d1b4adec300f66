import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { get } from 'node:https';
import { join } from 'node:path';
import { test } from 'node:test';
import WebSocket from 'ws';
import { ClusterSnapshotSchema } from '../../contract/schemas/snapshot.js';
import { createEngine } from '../../engine/create-engine.js';
import { certDir } from '../../../native-mgm/test/tls-fixtures.js';
import { PKI_FILES } from '../../../native-mgm/tls/pki-files.js';
import { plainTextWarning } from '../transport/https-listener.js';
import { startServeServer } from '../serve-server.js';
import { httpGet, makeStaticRoot, waitFor } from './helpers.js';

const TOKEN = 'https-token-0123456789';

function httpsGet(url: string, ca: string, headers: Record<string, string>): Promise<{ status: number; body: string; cookie: string }> {
  return new Promise((resolve, reject) => {
    get(url, { ca, headers }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, cookie: String(res.headers['set-cookie'] ?? '') }));
    }).on('error', reject);
  });
}

test('serve --tls-cert/--tls-key: dashboard, API, /metrics and the WebSocket over HTTPS/WSS, the token cookie is Secure', async (t) => {
  const dir = await certDir(t);
  const ca = await readFile(join(dir, PKI_FILES.caCert), 'utf8');
  const engine = await createEngine({ host: 'serve', simulator: { dataNodes: 2, replicas: 2 }, pollIntervalMs: 200 });
  const root = await makeStaticRoot();
  const https = { certFile: join(dir, PKI_FILES.mgmdCert), keyFile: join(dir, PKI_FILES.mgmdKey) };
  const server = await startServeServer({ engine, staticDir: root.root, host: '127.0.0.1', port: 0, token: TOKEN, https });
  t.after(async () => {
    await server.close();
    await engine.close();
    await root.cleanup();
  });
  assert.match(server.url, /^https:\/\/127\.0\.0\.1:\d+\/\?token=/);
  const base = `https://127.0.0.1:${server.port}`;
  const auth = { Authorization: `Bearer ${TOKEN}` };
  const snap = await waitFor(async () => {
    const r = await httpsGet(`${base}/api/snapshot`, ca, auth);
    return r.status === 200 ? ClusterSnapshotSchema.parse(JSON.parse(r.body)) : undefined;
  }, 'a snapshot over HTTPS');
  assert.ok(snap.nodes.length > 0);
  assert.equal((await httpsGet(`${base}/api/snapshot`, ca, {})).status, 401, 'the token is still required');
  assert.match((await httpsGet(`${base}/metrics`, ca, auth)).body, /ndb/);
  const page = await httpsGet(`${base}/?token=${TOKEN}`, ca, {});
  assert.equal(page.status, 200);
  assert.match(page.cookie, /; Secure/);
  await assert.rejects(httpGet(server.port, '/api/snapshot', auth), 'no plain HTTP on the HTTPS port');

  const pushed = await new Promise<string>((resolve, reject) => {
    const ws = new WebSocket(`wss://127.0.0.1:${server.port}/ws?token=${TOKEN}`, { ca });
    ws.once('message', (data: Buffer) => {
      ws.close();
      resolve(data.toString());
    });
    ws.once('error', reject);
  });
  assert.ok(pushed.length > 0);
});

test('beyond loopback without HTTPS serve warns that the token crosses the network in clear text', () => {
  assert.match(plainTextWarning('0.0.0.0', undefined) ?? '', /plain HTTP: the token .* clear text; use --tls-cert and --tls-key/);
  assert.equal(plainTextWarning('127.0.0.1', undefined), null);
  assert.equal(plainTextWarning('0.0.0.0', { certFile: 'c', keyFile: 'k' }), null);
});
