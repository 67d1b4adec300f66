import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Socket } from 'node:net';
import { ScriptedServer, configReply, mgmdScript } from '../../../../native-mgm/client/test/scripted-server.js';
import { REFERENCE_BLOB } from '../../../../native-mgm/config/test/reference-blob.js';
import { SPEC_REPLIES } from '../../../../native-mgm/test/fixtures/spec-transcripts.js';
import { createMetricsExporter } from '../../../serve/metrics/exporter.js';
import { createEngine } from '../../create-engine.js';
import { waitFor } from '../../test/helpers.js';

// Issue 15 item 6: a server that completes the handshake but stops answering `get status` left the snapshot
// `live` with 40 s old data.
test('a connected cluster whose get status goes unanswered shows stale (snapshot, /metrics), and live again once answered', { timeout: 120_000 }, async (t) => {
  let frozen = false;
  const held: Socket[] = [];
  const server = await ScriptedServer.start(
    mgmdScript(1, (req, socket) => {
      if (req.command !== 'get status' || !frozen) return undefined;
      held.push(socket);
      return { stall: true };
    }),
  );
  t.after(() => server.close());
  // A long request timeout: the session stays up the whole time, so only staleness can tell.
  const engine = await createEngine({ host: 'serve', simulator: false, clusters: [{ connectstring: `127.0.0.1:${server.port}` }], pollIntervalMs: 100, requestTimeoutMs: 60_000 });
  t.after(() => engine.close());
  const exporter = createMetricsExporter(engine.handlers);
  const metrics = {
    render: async () => {
      const scrape = await exporter.scrape(undefined);
      assert.ok(scrape.ok);
      return scrape.body;
    },
  };
  const status = async () => (await engine.handlers.getSnapshot({})).connection.status;

  await waitFor('live with nodes', async () => (await status()) === 'live' && (await engine.handlers.getSnapshot({})).nodes.length > 0);
  frozen = true;
  await waitFor('stale', async () => (await status()) === 'stale');
  // The header says why the data ages, before any request has timed out.
  assert.match((await engine.handlers.getSnapshot({})).connection.lastError ?? '', /"get status" unanswered for \d+\.\d s on 127\.0\.0\.1:\d+/);
  assert.match(await metrics.render(), /ndbtop_connection_state\{[^}]*state="stale"[^}]*\} 1/);
  const [summary] = await engine.handlers.listClusters({});
  assert.equal(summary?.status, 'stale');

  frozen = false;
  for (const socket of held) socket.write(SPEC_REPLIES.getStatus);
  await waitFor('live again', async () => (await status()) === 'live');
  assert.match(await metrics.render(), /ndbtop_connection_state\{[^}]*state="live"[^}]*\} 1/);
});

test('a configuration that takes longer than a poll deadline to arrive does not cost the working session', { timeout: 120_000 }, async (t) => {
  const held: Socket[] = [];
  const server = await ScriptedServer.start(
    mgmdScript(1, (req, socket) => {
      if (req.command !== 'get config_v2' && req.command !== 'get config') return undefined;
      held.push(socket);
      return { stall: true };
    }),
  );
  t.after(() => server.close());
  const engine = await createEngine({ host: 'serve', simulator: false, clusters: [{ connectstring: `127.0.0.1:${server.port}` }], pollIntervalMs: 200, requestTimeoutMs: 1000 });
  t.after(() => engine.close());
  const snapshot = () => engine.handlers.getSnapshot({});
  await waitFor('config asked', () => held.length > 0);
  const since = (await snapshot()).connection.mgmd?.since;
  // Three poll deadlines late: a bulk reply on a loaded host, not a dead server.
  await new Promise((r) => setTimeout(r, 3000));
  for (const socket of held) socket.write(configReply(REFERENCE_BLOB));
  await waitFor('configuration read', async () => (await engine.handlers.getClusterConfig({})) !== null);
  const after = await snapshot();
  assert.equal(after.connection.mgmd?.since, since, 'the same session, never dropped');
  assert.equal(after.connection.failovers, 0);
  assert.doesNotMatch(after.connection.lastError ?? '', /config/, 'no configuration timeout was reported');
});
