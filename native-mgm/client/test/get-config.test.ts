import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { CommandFailedError, ConfigFormatError } from '../../errors.js';
import { REFERENCE_BLOB } from '../../config/test/reference-blob.js';
import { MgmClient } from '../mgm-client.js';
import { configReply, mgmdScript, ScriptedServer, type ScriptAction, type ScriptedRequest } from './scripted-server.js';

async function clientFor(t: TestContext, onConfig: (req: ScriptedRequest) => ScriptAction) {
  const server = await ScriptedServer.start(mgmdScript(1, (req) => (req.command === 'get config_v2' ? onConfig(req) : undefined)));
  const client = new MgmClient({ hosts: [{ host: '127.0.0.1', port: server.port, bindAddress: null }], reconnect: false });
  t.after(async () => {
    client.close();
    await server.close();
  });
  return { server, client };
}

test('getConfig sends get config_v2 as mgmapi does and decodes the real blob, in pieces', async (t) => {
  const reply = configReply(REFERENCE_BLOB);
  const { server, client } = await clientFor(t, () => ({ chunks: [reply.slice(0, 90), reply.slice(90, 1000), reply.slice(1000)] }));
  const config = await client.getConfig();
  assert.equal(config.name, 'MC_20210614170132');
  assert.equal(config.nodes.find((n) => n.nodeId === 2)!.params['DataMemory'], 209715200);
  const req = server.requests.find((r) => r.command === 'get config_v2')!;
  assert.deepEqual(req.args, { version: '525315', nodetype: '1', from_node: '0' });
  // The session is still in step: the next request gets its own reply.
  assert.equal((await client.getStatus()).length, 7);
});

test('getConfig: the server\'s error text, and an unusable body, are typed errors', async (t) => {
  let answer = 'get config reply\nresult: Nodeid 1000 is greater than max nodeid 255. \n\n';
  const { client } = await clientFor(t, () => answer);
  await assert.rejects(client.getConfig({ fromNode: 1000 }), (e: unknown) => e instanceof CommandFailedError && e.result.trimEnd() === 'Nodeid 1000 is greater than max nodeid 255.');
  answer = configReply(Buffer.from('NDBCONFV[ndbd]\nNodeId=2\n').toString('base64'));
  await assert.rejects(client.getConfig(), (e: unknown) => e instanceof ConfigFormatError && e.code === 'PROTOCOL' && /v1 configuration/.test(e.message));
});

test('getConfigUnless decodes only a body other than the one it is given, and still checks the reply', async (t) => {
  let blob = REFERENCE_BLOB;
  const { client } = await clientFor(t, () => configReply(blob));
  const first = await client.getConfigUnless(null, { linksOf: 255 });
  assert.equal(first.config?.name, 'MC_20210614170132');
  const again = await client.getConfigUnless(first.body, { linksOf: 255 });
  assert.equal(again.body, first.body);
  assert.equal(again.config, null);
  // Other bytes are decoded, whatever the caller knew.
  assert.equal((await client.getConfigUnless('AAAA', { linksOf: 255 })).config?.name, 'MC_20210614170132');
  blob = Buffer.from('NDBCONFV[ndbd]\nNodeId=2\n').toString('base64');
  await assert.rejects(client.getConfigUnless(first.body), (e: unknown) => e instanceof ConfigFormatError && /v1 configuration/.test(e.message));
});
