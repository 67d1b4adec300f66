import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { MgmClient } from '../../../native-mgm/client/mgm-client.js';
import { startSimulator } from '../../../native-mgm/sim/index.js';
import { readPlanInputs } from '../../engine/features/rolling/ports/mgm-plan-inputs.js';
import { ClusterWitness } from '../../engine/features/rolling/test/sim-harness.js';

/**
 * A 4-node simulated cluster for one rolling-restart CLI test, a state file of its own and a witness polling `get
 * status` on its own connection; all gone when the test ends, the witness first.
 */
export async function cluster(t: TestContext, speed: number) {
  const sim = await startSimulator({ dataNodes: 4, replicas: 2, scenario: 'idle', speed });
  const witness = new ClusterWitness(sim);
  const dir = mkdtempSync(join(tmpdir(), 'ndbtop-rr-'));
  t.after(async () => {
    witness.close();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const client = new MgmClient({ connectstring: sim.connectstring, reconnect: false });
  const { cluster: identity } = await client.connect().then(() => readPlanInputs(client));
  client.close();
  return { sim, stateFile: join(dir, 's.json'), witness, dir, identity };
}
