import type { PushMessage } from '../../contract/schemas/channels.js';
import type { Alert } from '../../contract/schemas/events.js';
import { parsePush } from '../../contract/schemas/validate.js';
import type { ClusterSnapshot } from '../../contract/schemas/snapshot.js';
import type { EngineHost } from '../core/engine-host.js';
import { applyDelta } from '../core/push/snapshot-delta.js';

/** Polls `condition` until it returns a truthy value; fails with `what` after a generous timeout. */
export async function waitFor<T>(what: string, condition: () => T | Promise<T>, timeoutMs = 20_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Arrival of the newest statistics report of any data node (the engine's counters), 0 before the first. */
export async function newestReportAt(host: EngineHost): Promise<number> {
  const { nodes } = await host.handlers.getCounters({});
  return Math.max(0, ...nodes.map((n) => n.lastReportAt ?? 0));
}

/** The alerts pushed from now on, as a UI receives them, until `stop()`. */
export function alertsPushed(host: EngineHost): { alerts: Alert[]; stop: () => void } {
  const alerts: Alert[] = [];
  const stop = host.subscribe((m) => {
    if (m.type === 'alert') alerts.push(m.alert);
  });
  return { alerts, stop };
}

/** How many nodes the timeline saw leave STARTED and be STARTED again. */
export async function nodesRestarted(host: EngineHost): Promise<number> {
  const { nodes } = await host.handlers.getTimeline({});
  return nodes.filter((n) => n.segments.some((s) => s.status !== 'STARTED') && n.segments.at(-1)?.status === 'STARTED').length;
}

/**
 * Subscribes like a UI would: validates every push against the contract, keeps the snapshot current by applying
 * deltas (checking versions have no gap), and remembers every snapshot state seen, in order.
 */
export class PushWatcher {
  readonly messages: PushMessage[] = [];
  readonly states: ClusterSnapshot[] = [];
  current: ClusterSnapshot | null = null;
  private version = 0;
  readonly unsubscribe: () => void;

  constructor(host: EngineHost) {
    this.unsubscribe = host.subscribe((raw) => {
      const m = parsePush(JSON.parse(JSON.stringify(raw)));
      this.messages.push(m);
      if (m.type === 'snapshot') {
        this.current = m.snapshot;
        this.version = m.version;
      } else if (m.type === 'delta') {
        if (!this.current) throw new Error('delta before snapshot');
        if (m.delta.baseVersion !== this.version) throw new Error(`delta gap: have ${this.version}, delta on ${m.delta.baseVersion}`);
        this.current = applyDelta(this.current, m.delta);
        this.version = m.delta.version;
      } else return;
      this.states.push(this.current);
    });
  }

  node(id: number): ClusterSnapshot['nodes'][number] | undefined {
    return this.current?.nodes.find((n) => n.nodeId === id);
  }
}
