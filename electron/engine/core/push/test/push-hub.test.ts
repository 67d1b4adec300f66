import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PushMessage } from '../../../../contract/schemas/channels.js';
import type { ClusterSnapshot } from '../../../../contract/schemas/snapshot.js';
import { PushHub, URGENT_BURST, type HubClock } from '../push-hub.js';

/** Time moves only when the test says so; timers run in due order as it passes. */
function fakeClock(): HubClock & { advance(ms: number): Promise<void> } {
  let now = 1000;
  let nextId = 0;
  const timers = new Map<number, { due: number; run: () => void }>();
  return {
    now: () => now,
    setTimeout: (run, ms) => {
      timers.set(++nextId, { due: now + ms, run });
      return nextId;
    },
    clearTimeout: (handle) => void timers.delete(handle as number),
    async advance(ms) {
      const until = now + ms;
      for (;;) {
        const next = [...timers.entries()].filter(([, t]) => t.due <= until).sort((a, b) => a[1].due - b[1].due)[0];
        if (!next) break;
        timers.delete(next[0]);
        now = next[1].due;
        next[1].run();
        await settle();
      }
      now = until;
      await settle();
    },
  };
}

/** Lets queued microtasks (the hub's same-turn flush) run. */
const settle = async (): Promise<void> => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

function fakeSnapshot(n: number): ClusterSnapshot {
  return {
    clusterId: 'c1',
    name: 'x',
    connection: { mode: 'simulated', status: 'live', connectstring: 'h', mgmd: null, serverVersion: null, failovers: 0, lastError: null, eventStream: { status: 'live' } },
    sampledAt: n,
    nodes: [],
    nodeGroups: [],
    masterNodeId: null,
    singleUserApiNodeId: null,
    rates: null,
    backup: null,
    alerts: [],
  };
}

/** A hub with 100 ms per push (200 ms slots per lane) on a fake clock; `change()` moves the cluster and returns its new sample time. */
async function hub(): Promise<{ hub: PushHub; clock: ReturnType<typeof fakeClock>; pushes: PushMessage[]; change: (urgent?: boolean) => number }> {
  const clock = fakeClock();
  const h = new PushHub(100, clock);
  let n = 0;
  h.addCluster('c1', () => fakeSnapshot(n));
  const pushes: PushMessage[] = [];
  h.subscribe((m) => pushes.push(m));
  await settle();
  const change = (urgent = false): number => {
    n += 1;
    h.changed('c1', urgent);
    return n;
  };
  return { hub: h, clock, pushes, change };
}

const lastSampled = (pushes: PushMessage[]): number | null | undefined => {
  const last = pushes.at(-1);
  return last?.type === 'delta' ? last.delta.sampledAt : undefined;
};

test('leading edge: the first change after quiet goes out in the same turn; a burst is coalesced into the next slot', async () => {
  const { hub: h, clock, pushes, change } = await hub();
  assert.equal(pushes[0]?.type, 'snapshot', 'a new subscriber gets the full snapshot first');
  await clock.advance(250);
  const first = change();
  await settle();
  assert.equal(pushes.length, 2, 'delivered after a microtask, no timer');
  assert.ok(pushes[1]?.type === 'delta' && pushes[1].delta.baseVersion === 1 && pushes[1].delta.version === 2 && pushes[1].delta.sampledAt === first);
  let last = 0;
  for (let i = 0; i < 50; i++) {
    last = change();
    await settle();
  }
  assert.equal(pushes.length, 2, 'routine changes inside the slot wait');
  await clock.advance(199);
  assert.equal(pushes.length, 2);
  await clock.advance(1);
  assert.equal(pushes.length, 3, 'the burst went out as one push when the slot opened');
  assert.equal(lastSampled(pushes), last);
  h.close();
});

test('an urgent change that comes alone goes out at once, right after a routine push and right after another urgent one', async () => {
  const { hub: h, clock, pushes, change } = await hub();
  await clock.advance(1000);
  change();
  await settle();
  const afterRoutine = pushes.length;
  const down = change(true);
  assert.equal(pushes.length, afterRoutine + 1, 'sent inside the call that made the change, not behind the rest of the turn');
  assert.equal(lastSampled(pushes), down);
  await clock.advance(30);
  const up = change(true);
  await settle();
  assert.equal(pushes.length, afterRoutine + 2, '30 ms after an urgent push, the next urgent one still goes at once');
  assert.equal(lastSampled(pushes), up);
  h.close();
});

test('a burst of urgent changes is sent at once up to the bucket, then coalesced to one push per slot', async () => {
  const { hub: h, clock, pushes, change } = await hub();
  await clock.advance(1000);
  const start = pushes.length;
  for (let i = 0; i < URGENT_BURST; i++) {
    change(true);
    await settle();
  }
  assert.equal(pushes.length - start, URGENT_BURST, 'each went out in its own turn');
  let last = 0;
  for (let i = 0; i < 20; i++) {
    last = change(true);
    await settle();
  }
  assert.equal(pushes.length - start, URGENT_BURST, 'past the bucket they wait');
  await clock.advance(200);
  assert.equal(pushes.length - start, URGENT_BURST + 1, 'and go out together when a token comes back');
  assert.equal(lastSampled(pushes), last);
  // A quiet spell refills the bucket: the next lone urgent change is immediate again.
  await clock.advance(2000);
  const lone = change(true);
  await settle();
  assert.equal(lastSampled(pushes), lone);
  h.close();
});

test('a storm of routine and urgent changes stays at about ten pushes a second (the urgent bucket aside)', async () => {
  const { hub: h, clock, pushes, change } = await hub();
  const start = pushes.length;
  // Ten seconds of a change every 2 ms, every third urgent.
  for (let t = 0; t < 10_000; t += 2) {
    change(t % 6 === 0);
    await settle();
    await clock.advance(2);
  }
  const deltas = pushes.slice(start).filter((m) => m.type === 'delta').length;
  // Each lane: one push per 200 ms slot, 50 in ten seconds, the urgent lane's bucket on top.
  assert.ok(deltas <= 2 * 51 + URGENT_BURST, `${deltas} pushes in ten seconds of constant change`);
  assert.ok(deltas >= 90, `changes kept going out: ${deltas}`);
  h.close();
});
