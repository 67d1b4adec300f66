import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Incident, IncidentCauseKind } from '../../../../contract/schemas/incidents.js';
import type { ClusterSnapshot } from '../../../../contract/schemas/snapshot.js';
import { createEngine } from '../../../create-engine.js';
import { waitFor } from '../../../test/helpers.js';
import { hostedIdleCluster } from '../../../test/hosted-cluster.js';

const SPEED = 20;

/** Each failure scenario of the simulator, the cause its incidents must name, and what their evidence must quote. */
const SCENARIOS: ReadonlyArray<{ scenario: 'heartbeat-failure' | 'arbitration' | 'gcp-stop' | 'redo-full' | 'error'; kind: IncidentCauseKind; quotes: RegExp[] }> = [
  { scenario: 'heartbeat-failure', kind: 'heartbeat', quotes: [/missed \d heartbeats from node \d+/, /node \d+ declared dead \(missed heartbeats\)/, /error 2315: Node declared dead/] },
  { scenario: 'arbitration', kind: 'arbitration', quotes: [/arbitration result: arbitrator says lose/, /error 2305: Node lost connection to other nodes/] },
  { scenario: 'gcp-stop', kind: 'gcp-stop', quotes: [/error 2303: System error, node killed during node restart by other node \(another node killed it/] },
  { scenario: 'redo-full', kind: 'redo-full', quotes: [/redo log part \d+ \d+ % used/, /error 2354: Fatal error due to end of REDO log/] },
  { scenario: 'error', kind: 'error', quotes: [/error 2341: Internal program error \(failed ndbrequire\)/] },
];

for (const { scenario, kind, quotes } of SCENARIOS) {
  test(`the ${scenario} scenario: each failure is one incident of kind ${kind}, quoting its events`, async (t) => {
    const engine = await createEngine({ host: 'serve', actionsEnabled: false, pollIntervalMs: 250, simulator: { scenario, dataNodes: 4, speed: SPEED } });
    t.after(() => engine.close());
    const first = await waitFor(
      `a ${scenario} incident whose node is back`,
      async () => {
        const list = (await engine.handlers.getIncidents({})).incidents;
        const oldest = list[list.length - 1];
        return oldest?.restart.backAt ? oldest : null;
      },
      180_000,
    );
    const all = (await engine.handlers.getIncidents({})).incidents;
    const text = (i: Incident): string => [i.cause, ...(i.otherCauses ?? [])].flatMap((c) => c.evidence.map((e) => e.text)).join('\n');
    assert.equal(first.cause.kind, kind, `${first.cause.text}\n${text(first)}`);
    for (const q of quotes) assert.match(text(first), q);
    assert.ok(first.cause.evidence.every((e) => e.at >= first.before.from && e.at <= first.noticedAt + 30_000), 'evidence from the minute before and the half minute after');
    assert.ok(first.restart.phases.length > 0 && first.restart.totalSecs !== null, 'the restart, timed');
    for (const i of all) assert.equal(i.cause.kind, kind, `every incident of the scenario names ${kind}: ${i.cause.text}`);
    const snapshot = (await engine.handlers.getSnapshot({})) as ClusterSnapshot;
    const down = snapshot.alerts.filter((a) => a.kind === 'node-down');
    // After a split the losing half reports the winners failed too; only the losers are down and alerted (cluster/failure-reports.ts).
    assert.ok(down.length > 0 && down.every((a) => all.some((i) => i.id === a.incidentId)), 'every node-down alert links its incident');
    assert.ok(all.every((i) => down.some((a) => a.incidentId === i.id && i.nodeIds.includes(a.nodeId ?? -1))), 'every incident is linked from its nodes\' alerts');
  });
}

test('a rolling restart of 48 data nodes that ndbtop conducts raises no incident', async (t) => {
  const engine = await hostedIdleCluster(t, 48, SPEED, 250);
  // No SQL source here: the redo check cannot be made, and a plan halts on it unless told it may go unchecked.
  const plan = await waitFor('a plan', () => engine.handlers.planRollingRestart({ order: 'node-group', pauseMs: 0, checks: { allowUnchecked: true } }).catch(() => null), 30_000);
  await engine.handlers.startRollingRestart({ planId: plan.planId });
  await waitFor('the plan done', async () => (await engine.handlers.getRollingRestart({}))?.state === 'done', 300_000);
  const timeline = await engine.handlers.getTimeline({});
  assert.ok(timeline.nodes.filter((n) => n.segments.some((s) => s.status !== 'STARTED')).length >= 48, 'every data node left STARTED');
  assert.deepEqual((await engine.handlers.getIncidents({})).incidents, []);
});
