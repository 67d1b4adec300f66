import assert from 'node:assert/strict';
import { initialMachine, step } from '../execution/executor.js';
import { DEFAULT_LIMITS, planRollingRestart } from '../plan/planner.js';
import type { PlanLimits, RestartOrder, RollEvent, RollInput, RollingPlan, RollMachine } from '../types.js';

/** Four data nodes, node groups 0 (nodes 2 and 3) and 1 (4 and 5), one management server: what the executor's tests drive. */
export function fourNodePlan(order: RestartOrder, limits: Partial<PlanLimits>): RollingPlan {
  const out = planRollingRestart({
    id: 'p',
    cluster: 'c',
    createdAt: 0,
    dataNodes: [2, 3, 4, 5].map((nodeId) => ({ nodeId, status: 'STARTED' as const, nodeGroup: nodeId < 4 ? 0 : 1 })),
    mgmNodeIds: [1],
    replicas: 2,
    order,
    pauseMs: 0,
    limits: { ...DEFAULT_LIMITS, ...limits },
  });
  assert.ok(out.ok);
  return out.plan;
}

/** The executor fed `inputs` from the plan's start: the machine after the last one, and every event on the way. */
export function drive(plan: RollingPlan, inputs: readonly RollInput[]): { machine: RollMachine; events: RollEvent[] } {
  let machine = initialMachine(plan);
  const events: RollEvent[] = [];
  for (const input of inputs) {
    const next = step(machine, input);
    machine = next.machine;
    for (const e of next.effects) if (e.kind === 'emit') events.push(e.event);
  }
  return { machine, events };
}
