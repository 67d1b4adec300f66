import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Alert } from '../../../../contract/schemas/events.js';
import type { NodeState } from '../../../../../native-mgm/index.js';
import { ClusterTracker } from '../../../cluster/cluster-tracker.js';
import { declaringPort } from '../ports/declared-port.js';
import type { ClusterPort, RestartOutcome } from '../ports/ports.js';

function states(down: number[] = []): NodeState[] {
  return [1, 2].map((nodeId): NodeState => {
    const status = down.includes(nodeId) ? 'NO_CONTACT' : 'STARTED';
    return { nodeId, type: 'NDB', status, statusRaw: status, startPhase: 0, nodeGroup: 0, version: '9.3.0', versionRaw: 0x90300, mysqlVersion: '9.3.0', mysqlVersionRaw: 0x90300, address: '127.0.0.1', connectCount: 1, dynamicId: nodeId, isSingleUser: false, isMaster: nodeId === 1, extra: {} };
  });
}

/** A cluster whose management server answers each restart with `outcome`; the port's observations are not used here. */
function answering(outcome: RestartOutcome): ClusterPort {
  return { observe: async () => ({ at: 0, connected: false, error: 'unused', nodes: [], criticalAlerts: [], restartCompleted: null }), restart: async () => outcome };
}

async function dropAfterRestart(outcome: RestartOutcome): Promise<string[]> {
  const raised: Alert[] = [];
  const tracker = new ClusterTracker('c1', 'test', { connectstring: 'x', mode: 'simulated', historySeconds: 60 }, { changed: () => undefined, events: () => undefined, alert: (a) => raised.push(a), history: () => undefined });
  tracker.apply({ kind: 'status', t: 1000, requestedAt: 990, nodes: states() });
  let t = 1000;
  const port = declaringPort(answering(outcome), (input) => tracker.apply(input), 'rolling restart', () => (t += 10));
  await port.restart([2], { timeoutMs: 1000, signal: new AbortController().signal });
  tracker.apply({ kind: 'status', t: 5000, requestedAt: 4990, nodes: states([2]) });
  return raised.map((a) => a.kind).sort();
}

test('a restart the conductor sent is declared planned before it goes out; one refused is withdrawn', async () => {
  assert.deepEqual(await dropAfterRestart({ kind: 'ok' }), []);
  assert.deepEqual(await dropAfterRestart({ kind: 'lost', error: 'connection reset' }), [], 'a lost reply may still have restarted the node');
  assert.deepEqual(await dropAfterRestart({ kind: 'refused', text: '5028-Node shutdown would cause system crash' }), ['node-down', 'node-group-degraded']);
});
