import { EventStream } from '../../client/event-stream.js';
import { MgmClient } from '../../client/mgm-client.js';
import type { Category } from '../../events/catalogue.js';
import type { ClusterEvent } from '../../types.js';
import { startSimulator, type Simulator, type SimulatorOptions } from '../index.js';

/** What a failure-scenario test watches: the events as a real client receives them, and each node's statuses. */
export interface FailureWatch {
  sim: Simulator;
  client: MgmClient;
  events: ClusterEvent[];
  /** Sim time at which the model emitted each event, in the order it emitted them. */
  emittedAt: Array<{ type: number; source: number; at: number }>;
  /** Every status each data node was seen in by `get status` polls, in order, repeats dropped. */
  statuses: Map<number, string[]>;
}

const POLL_MS = 10;

/**
 * Starts the simulator on `scenario`, subscribes a real EventStream (the client's, over TCP) at `filter`, then polls
 * `get status` through MgmClient until the test ends. The scenario begins at the first poll (`startWhenWatched`), so
 * the stream sees its story from the start on a loaded machine too.
 */
export async function watchFailures(
  t: { after(fn: () => unknown): void },
  options: SimulatorOptions,
  filter?: Readonly<Partial<Record<Category, number>>>,
): Promise<FailureWatch> {
  const sim = await startSimulator({ ...options, startWhenWatched: true });
  const client = new MgmClient({ connectstring: sim.connectstring, backoff: { baseMs: 10, capMs: 100 } });
  const stream = new EventStream({ connectstring: sim.connectstring, backoff: { baseMs: 10, capMs: 100 }, ...(filter ? { filter } : {}) });
  const watch: FailureWatch = { sim, client, events: [], emittedAt: [], statuses: new Map() };
  stream.events.on('event', (e) => watch.events.push(e));
  sim.model.onEvent((e) => watch.emittedAt.push({ type: e.type, source: e.source, at: sim.model.clock.now() }));
  let polling = true;
  let poller: Promise<void> = Promise.resolve();
  t.after(async () => {
    polling = false;
    await poller;
    stream.close();
    client.close();
    await sim.close();
  });
  await stream.start();
  poller = (async () => {
    while (polling) {
      try {
        for (const n of await client.getStatus(['NDB'])) {
          const seen = watch.statuses.get(n.nodeId) ?? [];
          if (seen.at(-1) !== n.status) seen.push(n.status);
          watch.statuses.set(n.nodeId, seen);
        }
      } catch {
        // A poll that fails while the test closes is no finding.
      }
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  })();
  return watch;
}

/** Index of the first event after `from` that matches. */
export function findEvent(events: readonly ClusterEvent[], from: number, name: string, match: (e: ClusterEvent) => boolean = () => true): number {
  for (let i = Math.max(0, from); i < events.length; i++) {
    const e = events[i]!;
    if (e.name === name && match(e)) return i;
  }
  return -1;
}
