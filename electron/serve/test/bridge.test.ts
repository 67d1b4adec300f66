import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BAD_MESSAGE, dispatchRequest } from '../transport/bridge.js';
import { createFixtureEngine, FIXTURE_SNAPSHOT } from './fixture-engine.js';

const { handlers } = createFixtureEngine();

test('a valid request reaches the engine and its answer comes back', async () => {
  assert.deepEqual(await dispatchRequest(handlers, 'getSnapshot', { clusterId: 'c1' }), { ok: true, response: FIXTURE_SNAPSHOT });
});

test('a missing request body counts as {} (requests without fields)', async () => {
  const result = await dispatchRequest(handlers, 'getAppInfo', undefined);
  assert.equal(result.ok, true);
});

test('unknown names, including inherited property names, are refused as data', async () => {
  for (const name of ['nope', 'toString', '__proto__', 42, null]) {
    const result = await dispatchRequest(handlers, name, {});
    assert.deepEqual(result.ok ? null : result.error.code, BAD_MESSAGE, String(name));
  }
});

test('a request that does not match the contract is refused before the engine sees it', async () => {
  const result = await dispatchRequest(handlers, 'runAction', { action: { kind: 'stop', nodeId: 999 } });
  assert.equal(result.ok, false);
  assert.equal(result.ok ? '' : result.error.code, BAD_MESSAGE);
  assert.match(result.ok ? '' : result.error.message, /action\.nodeId/);
});

test("the engine's own error code crosses unchanged", async () => {
  const result = await dispatchRequest(handlers, 'runAction', { action: { kind: 'start', nodeId: 1 } });
  assert.deepEqual(result, { ok: false, error: { code: 'FORBIDDEN', message: 'operator actions are disabled' } });
});

test("a failure not written for the client: serve's browsers get an id only, the desktop's operator the detail too", async () => {
  const failing = { ...handlers, getSnapshot: async () => { throw new Error('ENOENT: /root/.ndbtop/secret.json'); } };
  const lines: string[] = [];
  const log = (line: string): void => void lines.push(line);
  const remote = await dispatchRequest(failing, 'getSnapshot', { clusterId: 'c1' }, log);
  const operator = await dispatchRequest(failing, 'getSnapshot', { clusterId: 'c1' }, log, 'operator');
  assert.equal(remote.ok ? '' : remote.error.code, 'INTERNAL');
  assert.doesNotMatch(remote.ok ? '' : remote.error.message, /secret/);
  assert.match(operator.ok ? '' : operator.error.message, /^ENOENT: \/root\/\.ndbtop\/secret\.json \([0-9a-f]{12}\)$/);
  assert.equal(lines.length, 2);
  assert.ok(lines.every((l) => l.includes('secret.json')));
});
