import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { connect, type TLSSocket } from 'node:tls';
import { certDir } from '../../test/tls-fixtures.js';
import { PKI_FILES } from '../../tls/pki-files.js';
import { withSim, type RawConnection } from './raw-socket.js';

const AUTH_FAILED = 'Authorization failed\nError: Requires TLS\n\n';

/** `start tls` on a raw connection, then our side of the handshake on the same socket. */
async function upgrade(raw: RawConnection, dir: string): Promise<{ tls: TLSSocket; request(text: string): Promise<string> }> {
  assert.equal(await raw.request('start tls\n\n'), 'start tls reply\nresult: Ok\n\n');
  raw.socket.removeAllListeners('data');
  const file = (name: string) => readFile(join(dir, name), 'utf8');
  const tls = connect({ socket: raw.socket, ca: await file(PKI_FILES.caCert), cert: await file(PKI_FILES.apiCert), key: await file(PKI_FILES.apiKey), servername: 'localhost' });
  await new Promise<void>((resolve, reject) => tls.once('secureConnect', resolve).once('error', reject));
  let buffered = '';
  tls.on('data', (d: Buffer) => (buffered += d.toString()));
  const request = async (text: string): Promise<string> => {
    tls.write(text);
    for (;;) {
      const end = buffered.indexOf('\n\n');
      if (end >= 0) {
        const out = buffered.slice(0, end + 2);
        buffered = buffered.slice(end + 2);
        return out;
      }
      await new Promise((r) => tls.once('data', r));
    }
  };
  return { tls, request };
}

test('a TLS-requiring server: bootstrap commands in clear text, everything else refused with the exact authorization reply', async (t) => {
  const dir = await certDir(t);
  await withSim({ dataNodes: 2, scenario: 'idle', tls: { searchPath: dir, require: true } }, async (_sim, open) => {
    const raw = await open();
    assert.match(await raw.request('get version\n\n'), /^version\nid: \d+\n/);
    assert.equal(await raw.request('set clientversion\nmajor: 8\nminor: 4\nbuild: 3\n\n'), 'set clientversion reply\nresult: Ok\n\n');
    assert.equal(await raw.request('check connection\n\n'), 'check connection reply\nresult: Ok\n\n');
    assert.equal(await raw.request('get mgmd nodeid\n\n'), 'get mgmd nodeid reply\nnodeid:1\n\n');
    for (const command of ['get status', 'get session id', 'list certs', 'get tls stats', 'listen event\nfilter: STARTUP=15']) {
      assert.equal(await raw.request(`${command}\n\n`), AUTH_FAILED, command);
    }

    const secured = await open();
    const { request, tls } = await upgrade(secured, dir);
    t.after(() => tls.destroy());
    assert.match(await request('get status\n\n'), /^node status\nnodes: \d+\n/);
    const id = /id: (\d+)/.exec(await request('get session id\n\n'))?.[1];
    assert.match(await request(`get session\nid: ${id}\n\n`), /\ntls: 1\n/);
    assert.equal(await request('start tls\n\n'), 'start tls reply\nresult: Already Connected\n\n');
    assert.equal(await request('get tls stats\n\n'), 'get tls stats reply\naccepted: 2\nupgraded: 1\ncurrent: 2\ntls: 1\nauthfail: 5\n\n');
    assert.match(await request('list certs\n\n'), new RegExp(`^list certs reply\\nsession: ${id}\\naddress: 127\\.0\\.0\\.1\\nserial: [0-9A-F]+\\nname: NDB Node [A-Z][a-z]{2} \\d{4}\\nexpires: \\d\\d-[A-Z][a-z]{2}-\\d{4}\\n\\n$`));
  });
});

test('start tls: Failed without keys (clear text goes on); after Ok, clear text on that socket ends it', async (t) => {
  await withSim({ dataNodes: 2, scenario: 'idle' }, async (_sim, open) => {
    const raw = await open();
    assert.equal(await raw.request('start tls\n\n'), 'start tls reply\nresult: Failed\n\n');
    assert.match(await raw.request('get version\n\n'), /^version\n/);
  });
  const dir = await certDir(t);
  await withSim({ dataNodes: 2, scenario: 'idle', tls: { searchPath: dir } }, async (_sim, open) => {
    const raw = await open();
    assert.equal(await raw.request('start tls\n\n'), 'start tls reply\nresult: Ok\n\n');
    raw.send('get version\n\n');
    await raw.waitClosed();
    assert.doesNotMatch(raw.pending, /version/);
  });
});
