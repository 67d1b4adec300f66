import assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import { test } from 'node:test';
import { ContractError } from '../../contract/page-safe/contract-error.js';
import { createEngine } from '../create-engine.js';
import { dispatchRequest } from '../core/dispatch.js';
import { waitFor } from './helpers.js';

/** A management server that misbehaves: `onConnect` decides what each accepted socket gets. */
async function rogueServer(onConnect: (socket: Socket) => void): Promise<{ connectstring: string; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((s) => {
    sockets.add(s);
    s.on('error', () => undefined);
    s.on('close', () => sockets.delete(s));
    onConnect(s);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return {
    connectstring: `127.0.0.1:${address.port}`,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}

async function engineOn(connectstring: string) {
  return createEngine({ host: 'serve', clusters: [{ name: 'bad', connectstring }], simulator: false, requestTimeoutMs: 300 });
}

async function lastErrorOf(engine: Awaited<ReturnType<typeof engineOn>>, pattern: RegExp): Promise<string> {
  return waitFor(`lastError matching ${pattern}`, async () => {
    const e = (await engine.handlers.getSnapshot({})).connection.lastError;
    return e !== null && pattern.test(e) ? e : null;
  });
}

test('misbehaving management servers give a clear lastError and the engine keeps answering', async (t) => {
  const cases: Array<{ name: string; behave: (s: Socket) => void; error: RegExp }> = [
    { name: 'stalls (accepts, never answers)', behave: () => undefined, error: /"get version" .* timed out after 300 ms/ },
    { name: 'drops the connection at once', behave: (s) => s.destroy(), error: /closed|reset|ECONNRESET/i },
    { name: 'answers garbage', behave: (s) => s.on('data', () => s.write('\u0000\u00ffnonsense: yes\nmore\n\n')), error: /^protocol error: expected reply "version"$/ },
  ];
  for (const c of cases) {
    await t.test(c.name, async () => {
      const rogue = await rogueServer(c.behave);
      const engine = await engineOn(rogue.connectstring);
      try {
        await lastErrorOf(engine, c.error);
        const snap = await engine.handlers.getSnapshot({});
        assert.notEqual(snap.connection.status, 'live');
        assert.equal(snap.sampledAt, null, 'nothing was shown as sampled');
        assert.equal((await engine.handlers.getAppInfo({})).host, 'serve');
      } finally {
        await engine.close();
        await rogue.close();
      }
    });
  }
});

test('a wrong connectstring: unparsable is offline at once, unreachable keeps trying with the reason shown', async () => {
  const unparsable = await engineOn('host:notaport');
  try {
    const snap = await unparsable.handlers.getSnapshot({});
    assert.equal(snap.connection.status, 'offline');
    assert.match(snap.connection.lastError ?? '', /port/i);
  } finally {
    await unparsable.close();
  }
  const refused = await rogueServer(() => undefined);
  const port = refused.connectstring;
  await refused.close();
  const unreachable = await engineOn(port);
  try {
    await lastErrorOf(unreachable, /no management server reachable/);
    assert.equal((await unreachable.handlers.getSnapshot({})).connection.status, 'connecting');
  } finally {
    await unreachable.close();
  }
});

test('malformed requests on the contract are rejected before any handler runs', async () => {
  const engine = await createEngine({ host: 'serve', simulator: { scenario: 'idle', dataNodes: 2 } });
  try {
    await assert.rejects(dispatchRequest(engine.handlers, 'getEvents', { limit: -5 }), (err: unknown) => err instanceof ContractError && /limit/.test(err.message));
    await assert.rejects(dispatchRequest(engine.handlers, 'dropDatabase', {}), /unknown request "dropDatabase"/);
    await assert.rejects(dispatchRequest(engine.handlers, 'runAction', { action: { kind: 'stop', nodeId: 999 } }), ContractError);
    await assert.rejects(dispatchRequest(engine.handlers, 'getSnapshot', { clusterId: 'nope' }), /no cluster with id "nope"/);
    const disabled = await dispatchRequest(engine.handlers, 'runAction', { action: { kind: 'stop', nodeId: 2 } });
    assert.deepEqual(disabled, { ok: false, message: 'operator actions are disabled (start ndbtop with --allow-actions)' });
    const info = await dispatchRequest(engine.handlers, 'getAppInfo', undefined);
    assert.deepEqual(info, { version: (info as { version: string }).version, host: 'serve', actionsEnabled: false, sqlPasswordStore: 'none' });
  } finally {
    await engine.close();
  }
});
