import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createServer } from 'mysql2';
import { NdbinfoError } from '../client/errors.js';
import { readOnce } from '../client/read-once.js';
import { parseSqlUrl } from '../client/sql-url.js';
import { freePort } from '../../native-mgm/test/free-port.js';
import { isState, recordingSource, waitFor, waitForCount } from './source-helpers.js';

/**
 * A MySQL-protocol server (mysql2's server side) that completes the handshake and then never answers a query:
 * a hung SQL node, which only the query deadline can tell from a slow one.
 */
describe('an SQL node that logs in and never answers a query', () => {
  let server: ReturnType<typeof createServer>;
  let port = 0;
  let connections = 0;
  before(async () => {
    port = await freePort();
    server = createServer((conn) => {
      connections += 1;
      conn.serverHandshake({ protocolVersion: 10, serverVersion: '8.4.3-cluster', connectionId: connections, statusFlags: 2, characterSet: 8, capabilityFlags: 0xf7ff });
      conn.on('error', () => undefined);
      // A listener that never replies (without one, mysql2's server answers "No query handler").
      conn.on('query', () => undefined);
    });
    // mysql2's typings know listen(port) only; the server passes every argument to net.Server#listen.
    const listen = server.listen.bind(server) as unknown as (port: number, host: string, ready: () => void) => void;
    await new Promise<void>((resolve) => listen(port, '127.0.0.1', resolve));
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('fails the read with a query timeout', async () => {
    const err = await readOnce([parseSqlUrl(`mysql://u@127.0.0.1:${port}`)], undefined, { connectTimeoutMs: 2000, queryTimeoutMs: 300 }).then(() => null, (e: unknown) => e);
    assert.ok(err instanceof NdbinfoError);
    assert.equal(err.code, 'TIMEOUT');
    assert.match(err.message, /query got no answer within 300 ms/);
  });

  it('the source drops the connection (its late answer would be taken for the next query) and dials again', async () => {
    const before = connections;
    const { source, events } = recordingSource({ addresses: [parseSqlUrl(`mysql://u@127.0.0.1:${port}`)], password: undefined, queryTimeoutMs: 200 });
    source.start();
    try {
      await waitForCount(events, (e) => e.type === 'state' && e.state.kind === 'lost' && e.state.code === 'TIMEOUT', 2);
      assert.ok(connections - before >= 2, 'a new connection for each attempt');
      assert.ok(await waitFor(events, isState('connecting')) >= 0);
    } finally {
      await source.close();
    }
  });
});
