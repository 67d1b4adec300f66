import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ScriptedServer, mgmdScript } from '../../../../native-mgm/client/test/scripted-server.js';
import { createEngine } from '../../create-engine.js';
import { waitFor } from '../../test/helpers.js';

// Issue 15 (1b): `serve` against a server that broke every session for a while (one byte too many after the
// bootstrap's last reply) stayed `reconnecting` with 0 nodes forever once the server answered normally again.
test('the engine comes back live once a server that broke its sessions answers normally again', { timeout: 120_000 }, async (t) => {
  let sessions = 0;
  let broken = true;
  const server = await ScriptedServer.start(
    mgmdScript(1, (req) => {
      if (req.command === 'get version') sessions += 1;
      if (req.command === 'get mgmd nodeid' && broken) return 'get mgmd nodeid reply\nnodeid:1\n\nx\n';
      return undefined;
    }),
  );
  t.after(() => server.close());
  const engine = await createEngine({ host: 'serve', simulator: false, clusters: [{ connectstring: `127.0.0.1:${server.port}` }], pollIntervalMs: 200 });
  t.after(() => engine.close());
  await waitFor('a few broken sessions', () => sessions >= 3);
  const snap = await engine.handlers.getSnapshot({});
  assert.equal(snap.nodes.length, 0);
  broken = false;
  const live = await waitFor('live with nodes', async () => {
    const s = await engine.handlers.getSnapshot({});
    return s.connection.status === 'live' && s.nodes.length === 7 ? s : null;
  }, 60_000);
  assert.equal(live.connection.mgmd?.nodeId, 1);
});
