import type { EngineHandlers } from '../../contract/page-safe/api.js';
import type { PushMessage, RequestName } from '../../contract/schemas/channels.js';
import type { RollingPlanView } from '../../contract/schemas/rolling-restart.js';

/**
 * A rolling plan as a browser gets it: each log line's words without the server's paths, never its `detail` (the
 * same line with them, for the operator at the server). Lines are rebuilt from what a viewer may read, so a field
 * added later is not sent until it is listed here.
 */
export function viewerPlan<T extends RollingPlanView | null | undefined>(plan: T): T {
  if (!plan?.log.some((l) => l.detail !== undefined)) return plan;
  return { ...plan, log: plan.log.map(({ at, text }) => ({ at, text })) };
}

/** A push as a browser gets it (the plan travels in snapshots and their deltas). */
export function viewerPush(m: PushMessage): PushMessage {
  if (m.type === 'snapshot' && m.snapshot.rollingPlan) return { ...m, snapshot: { ...m.snapshot, rollingPlan: viewerPlan(m.snapshot.rollingPlan) } };
  if (m.type === 'delta' && m.delta.rollingPlan) return { ...m, delta: { ...m.delta, rollingPlan: viewerPlan(m.delta.rollingPlan) } };
  return m;
}

/** The requests that answer with the rolling plan. */
const PLAN_ANSWERS = ['getRollingRestart', 'planRollingRestart', 'startRollingRestart', 'haltRollingRestart', 'resumeRollingRestart', 'abortRollingRestart'] as const satisfies readonly RequestName[];

/** `handlers` whose answers carry no server detail: the snapshot and every answer that is the rolling plan. */
export function withoutServerDetail(handlers: EngineHandlers): EngineHandlers {
  const out = { ...handlers } as Record<RequestName, (request: unknown) => Promise<unknown>>;
  for (const name of PLAN_ANSWERS) {
    const handler = handlers[name] as (request: unknown) => Promise<RollingPlanView | null>;
    out[name] = async (request) => viewerPlan(await handler(request));
  }
  out.getSnapshot = async (request) => {
    const s = await handlers.getSnapshot(request as Parameters<EngineHandlers['getSnapshot']>[0]);
    return s.rollingPlan ? { ...s, rollingPlan: viewerPlan(s.rollingPlan) } : s;
  };
  return out as unknown as EngineHandlers;
}
