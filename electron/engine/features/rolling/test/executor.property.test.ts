import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { NodeStatus } from '../../../../contract/schemas/node.js';
import { initialMachine, step } from '../execution/executor.js';
import { resumeAfterRestart } from '../plan/plan-store.js';
import { planRollingRestart } from '../plan/planner.js';
import type { Observation, RollInput, RollingPlan, RollMachine } from '../types.js';
import { passingNdb } from './ndb-facts.js';

const STATUSES: NodeStatus[] = ['STARTED', 'NO_CONTACT', 'NOT_STARTED', 'STARTING', 'SHUTTING_DOWN'];

function makePlan(groups: number, replicas: number, order: 'node-group' | 'node-id', pauseMs: number): RollingPlan {
  const dataNodes = Array.from({ length: groups * replicas }, (_, i) => ({ nodeId: i + 2, status: 'STARTED' as const, nodeGroup: Math.floor(i / replicas) }));
  const out = planRollingRestart({
    id: 'p',
    cluster: 'sim',
    createdAt: 0,
    dataNodes,
    mgmNodeIds: [1],
    replicas,
    order,
    pauseMs,
    limits: { leaveMs: 5000, notStartedMs: 5000, stepMs: 20_000 },
  });
  if (!out.ok) throw new Error(out.reasons.join('; '));
  return out.plan;
}

/** One thing that can happen to the executor; observations are drawn per node so any status mix can come. */
type Action =
  | { a: 'observe'; dt: number; connected: boolean; alert: boolean; world: boolean; statuses: number[]; bumps: boolean[]; missing: number }
  | { a: 'reply'; kind: 'ok' | 'refused' | 'lost'; stale: boolean; dt: number }
  | { a: 'op'; kind: 'start' | 'resume' | 'skip' | 'abort' | 'pause' }
  | { a: 'crash' };

const action = (nodes: number): fc.Arbitrary<Action> =>
  fc.oneof(
    {
      weight: 6,
      arbitrary: fc.record({
        a: fc.constant('observe' as const),
        dt: fc.integer({ min: 0, max: 4000 }),
        connected: fc.integer({ min: 0, max: 19 }).map((x) => x > 0),
        alert: fc.integer({ min: 0, max: 39 }).map((x) => x === 0),
        // Most observations see a healthy cluster (so steps go ahead), the rest any mix of statuses.
        // Most observations follow the restarts sent (those nodes down, or back with a new place in the ring, the
        // rest STARTED), so plans make progress; the others are any mix of statuses.
        world: fc.integer({ min: 0, max: 9 }).map((x) => x > 0),
        statuses: fc.array(fc.integer({ min: 0, max: STATUSES.length - 1 }), { minLength: nodes, maxLength: nodes }),
        bumps: fc.array(fc.integer({ min: 0, max: 9 }).map((x) => x === 0), { minLength: nodes, maxLength: nodes }),
        missing: fc.integer({ min: -200, max: nodes - 1 }),
      }),
    },
    { weight: 2, arbitrary: fc.record({ a: fc.constant('reply' as const), kind: fc.constantFrom('ok' as const, 'refused' as const, 'lost' as const), stale: fc.boolean(), dt: fc.integer({ min: 0, max: 1000 }) }) },
    // Operators click: resume and pause often, skip sometimes, abort (which ends the plan) rarely.
    { weight: 3, arbitrary: fc.record({ a: fc.constant('op' as const), kind: fc.constantFrom('start' as const, 'resume' as const, 'resume' as const, 'pause' as const, 'skip' as const) }) },
    { weight: 1, arbitrary: fc.record({ a: fc.constant('op' as const), kind: fc.constantFrom('abort' as const, 'start' as const, 'resume' as const, 'resume' as const, 'resume' as const, 'resume' as const, 'resume' as const, 'resume' as const) }) },
    { weight: 1, arbitrary: fc.constant({ a: 'crash' as const }) },
  );

/** The rules, written again independently of safety.ts: what may be restarted given what was just observed. */
function oracleAllows(plan: RollingPlan, nodes: readonly number[], obs: Observation | null): string | null {
  if (!obs) return 'no observation';
  if (!obs.connected) return 'not connected';
  if (obs.criticalAlerts.length > 0) return 'critical alert';
  if (!plan.steps.some((s) => s.length === nodes.length && s.every((id, i) => id === nodes[i]))) return 'not a planned step';
  const group = new Map(plan.nodeGroups.map((g) => [g.nodeId, g.nodeGroup]));
  for (const g of plan.nodeGroups) {
    const seen = obs.nodes.find((n) => n.nodeId === g.nodeId);
    if (!seen) return `node ${g.nodeId} not observed`;
    if (seen.status !== 'STARTED') return `node ${g.nodeId} is ${seen.status}`;
  }
  for (const id of nodes) {
    const g = group.get(id);
    const others = plan.nodeGroups.filter((o) => o.nodeGroup === g && !nodes.includes(o.nodeId));
    if (others.length === 0) return `node group ${String(g)} left without a live node`;
  }
  return null;
}

const seen = { sends: 0, done: 0, refusedResent: 0 };

test('executor: for any interleaving, every restart is allowed by the rules at that moment and no node is restarted twice unless a refused step was resumed', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 4 }),
      fc.integer({ min: 2, max: 3 }),
      fc.constantFrom('node-group' as const, 'node-id' as const),
      fc.constantFrom(0, 1500),
      fc.integer({ min: 1, max: 4 }).chain((g) => fc.array(action(g * 3), { minLength: 20, maxLength: 300, size: 'max' })),
      (groups, replicas, order, pauseMs, actions) => {
        const plan = makePlan(groups, replicas, order, pauseMs);
        const ids = plan.nodeGroups.map((g) => g.nodeId);
        let m: RollMachine = initialMachine(plan);
        let now = 0;
        const dyn = new Map(ids.map((id) => [id, id]));
        const sends = new Map<number, number>();
        const refusedPending = new Set<number>();
        const allowedAgain = new Set<number>();
        let lastAttempt = 0;
        for (const act of actions) {
          let input: RollInput;
          let obs: Observation | null = null;
          if (act.a === 'observe') {
            now += act.dt;
            const restarting = new Set(m.run && m.run.send !== 'refused' ? m.run.nodes.map((p) => p.nodeId) : []);
            const status = (id: number, i: number): NodeStatus => {
              if (!act.world) return STATUSES[act.statuses[i] ?? 0] as NodeStatus;
              if (!restarting.has(id)) return 'STARTED';
              return (act.statuses[i] ?? 0) % 2 === 0 ? 'STARTED' : 'STARTING';
            };
            for (const [i, id] of ids.entries()) if (act.bumps[i] || (act.world && restarting.has(id))) dyn.set(id, (dyn.get(id) ?? 0) + 100);
            obs = {
              at: now,
              connected: act.connected,
              error: act.connected ? null : 'down',
              nodes: act.connected ? ids.filter((_, i) => i !== act.missing).map((id, i) => ({ nodeId: id, status: status(id, i), nodeGroup: i % 2 === 0 ? null : (plan.nodeGroups.find((g) => g.nodeId === id)?.nodeGroup ?? null), dynamicId: dyn.get(id) ?? null, startPhase: 0 })) : [],
              criticalAlerts: act.alert ? ['node group 0 offline'] : [],
              restartCompleted: null,
              ndb: passingNdb(now),
            };
            input = { kind: 'observe', obs };
          } else if (act.a === 'reply') {
            now += act.dt;
            const attempt = act.stale ? lastAttempt - 1 : lastAttempt;
            input = act.kind === 'ok' ? { kind: 'restart-ok', attempt, at: now } : act.kind === 'refused' ? { kind: 'restart-refused', attempt, at: now, text: '5028-Node shutdown would cause system crash' } : { kind: 'restart-lost', attempt, at: now, error: 'closed' };
          } else if (act.a === 'crash') {
            m = resumeAfterRestart(JSON.parse(JSON.stringify(m)) as RollMachine, now);
            continue;
          } else {
            input = { kind: act.kind };
          }
          const before = m;
          const out = step(m, input);
          m = out.machine;
          if (input.kind === 'resume' && before.phase.kind === 'halted') for (const id of refusedPending) allowedAgain.add(id);
          if (input.kind === 'restart-refused' && before.run?.send === 'in-flight' && m.run?.send === 'refused') for (const p of m.run.nodes) refusedPending.add(p.nodeId);
          for (const e of out.effects) {
            if (e.kind !== 'restart') continue;
            const why = oracleAllows(plan, e.nodes, input.kind === 'observe' ? obs : null);
            assert.equal(why, null, `restart of ${e.nodes.join(',')} sent although ${why}`);
            for (const id of e.nodes) {
              if ((sends.get(id) ?? 0) > 0) {
                assert.ok(allowedAgain.has(id), `node ${id} restarted twice without a resumed refusal`);
                allowedAgain.delete(id);
                seen.refusedResent += 1;
              }
              refusedPending.delete(id);
              sends.set(id, (sends.get(id) ?? 0) + 1);
              seen.sends += 1;
            }
            lastAttempt = e.attempt;
          }
        }
        if (m.phase.kind === 'done') seen.done += 1;
      },
    ),
    { numRuns: 400 },
  );
  // The property means something only if the runs send restarts, finish plans and resend refused steps.
  assert.ok(seen.sends > 100 && seen.done > 0 && seen.refusedResent > 0, JSON.stringify(seen));
});
