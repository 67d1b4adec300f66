import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import type { ClusterSnapshot } from '../../contract/schemas/snapshot.js';
import { createEngine } from '../create-engine.js';
import { waitFor } from './helpers.js';

/**
 * An engine that may restart nodes, on a simulated idle cluster of `dataNodes` (no SQL node), keeping its rolling
 * restart's state in a directory of its own; returned once every data node is STARTED and the configuration read,
 * so a plan can be made at once. Closed and cleaned up when the test ends.
 */
export async function hostedIdleCluster(t: TestContext, dataNodes: number, speed: number, pollIntervalMs: number): Promise<Awaited<ReturnType<typeof createEngine>>> {
  const dir = await mkdtemp(join(tmpdir(), 'ndbtop-hosted-'));
  const engine = await createEngine({ host: 'serve', simulator: { scenario: 'idle', dataNodes, speed, sql: false }, actionsEnabled: true, pollIntervalMs, rollingStateDir: dir });
  t.after(async () => {
    await engine.close();
    await rm(dir, { recursive: true, force: true });
  });
  await waitFor(`${dataNodes} data nodes STARTED and the configuration read`, async () => {
    const s = (await engine.handlers.getSnapshot({})) as ClusterSnapshot;
    return s.nodes.filter((n) => n.type === 'NDB' && n.status === 'STARTED').length === dataNodes && s.configGeneration !== null;
  }, 60_000);
  return engine;
}
