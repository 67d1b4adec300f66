import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { NdbinfoError } from '../client/errors.js';
import { SqlConnection } from '../client/sql-connection.js';
import { parseSqlUrl } from '../client/sql-url.js';
import { startHostileAuthServer, type AuthPluginName, type HostileAuthServer } from './hostile-auth-server.js';

const PASSWORD = 'S3cret-of-the-operator';
const OPTIONS = { connectTimeoutMs: 5000, queryTimeoutMs: 5000 };

function keyPair(): { publicPem: string; privateKey: ReturnType<typeof generateKeyPairSync>['privateKey'] } {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(), privateKey };
}

for (const plugin of ['caching_sha2_password', 'sha256_password'] as AuthPluginName[]) {
  describe(`a hostile SQL server without TLS asking for the password (${plugin})`, () => {
    const hostile = keyPair();
    let server: HostileAuthServer;
    before(async () => {
      server = await startHostileAuthServer(plugin, hostile);
    });
    after(() => server.close());

    it('is refused before the password leaves: no key asked for, nothing recovered, a message that says what to do', async () => {
      const err = await SqlConnection.open(parseSqlUrl(server.url), PASSWORD, OPTIONS).then((c) => (c.close(), null), (e: unknown) => e);
      assert.ok(err instanceof NdbinfoError, String(err));
      assert.equal(err.code, 'UNSAFE_AUTH');
      assert.match(err.message, /--sql-ca FILE/);
      assert.match(err.message, /--sql-server-public-key FILE/);
      assert.match(err.message, /mysql_native_password/);
      assert.ok(!err.message.includes(PASSWORD));
      assert.equal(server.keyRequests, 0, 'the server was never asked for its key');
      assert.deepEqual(server.captured, []);
    });

    it("with the real SQL node's key given, the password goes under that key: the hostile server cannot read it", async () => {
      const real = keyPair();
      const err = await SqlConnection.open(parseSqlUrl(server.url), PASSWORD, { ...OPTIONS, serverPublicKey: real.publicPem }).then((c) => (c.close(), null), (e: unknown) => e);
      assert.ok(err instanceof NdbinfoError && err.code === 'ACCESS_DENIED', String(err));
      assert.equal(server.keyRequests, 0);
      assert.deepEqual(server.captured, []);
    });

    it("with the server's own key given (the user vouched for it), the login goes through under it", async () => {
      const conn = await SqlConnection.open(parseSqlUrl(server.url), PASSWORD, { ...OPTIONS, serverPublicKey: hostile.publicPem });
      conn.close();
      assert.equal(server.keyRequests, 0);
      assert.deepEqual(server.captured.slice(-1), [PASSWORD]);
    });
  });
}
