import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { sameValue } from '../../../../contract/page-safe/same-value.js';
import type { NodeView } from '../../../../contract/schemas/node.js';
import type { SnapshotDelta } from '../../../../contract/schemas/snapshot.js';
import { DATA_MEMORY_BLOCK } from '../../../cluster/memory.js';
import { createEngine } from '../../../create-engine.js';
import { readRecording } from '../../../recording/recording-reader.js';
import { waitFor } from '../../../test/helpers.js';

const POLL_MS = 1000;
/** Report periods of sim time per real second: every TC and LQH instance sends its zeros twice a real 5 s. */
const SPEED = 2;
/** A short refresh, so a few `dump events 50` rounds fall in a window of seconds (the default is 15 s). */
const MEMORY_REFRESH_MS = 1500;
const MEMORY_USAGE = 50;

/** A node's view with every `stale` flag left out: what differs then is more than a figure going stale or fresh. */
function withoutStale(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutStale);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([k]) => k !== 'stale').map(([k, v]) => [k, withoutStale(v)]));
}

async function tempRecording(): Promise<{ file: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'ndbtop-idle-'));
  return { file: join(dir, 'idle.jsonl'), cleanup: () => rm(dir, { recursive: true, force: true }) };
}

test('an idle 255-node simulated cluster: after warm-up no delta carries a node, and none is over a few hundred bytes', { timeout: 120_000 }, async () => {
  // 144 data nodes (4 TC and 4 LQH instances each: 1,152 reports of zeros per period), 2 management and 109 API
  // nodes. Memory is read once, at connect: this test is about the statistics reports.
  const engine = await createEngine({
    host: 'serve',
    pollIntervalMs: POLL_MS,
    memoryRefreshMs: 3_600_000,
    // No SQL node: this is about the management server's figures (a second's CPU reading changes every node's threads).
    simulator: { scenario: 'idle', dataNodes: 144, mgmNodes: 2, apiNodes: 109, speed: SPEED, sql: false },
  });
  const deltas: Array<{ at: number; delta: SnapshotDelta; bytes: number }> = [];
  const unsubscribe = engine.subscribe((m) => {
    if (m.type === 'delta') deltas.push({ at: Date.now(), delta: m.delta, bytes: Buffer.byteLength(JSON.stringify(m)) });
  });
  try {
    const snapshot = await waitFor(
      'every data node with rates',
      async () => {
        const s = await engine.handlers.getSnapshot({});
        return s.nodes.length === 255 && s.nodes.filter((n) => n.type === 'NDB').every((n) => n.rates !== null) ? s : null;
      },
      60_000,
    );
    assert.ok(snapshot.nodes.filter((n) => n.type === 'NDB').every((n) => n.rates?.reads === 0 && n.rates.stale === false), 'idle: zeros, fresh');
    const snapshotAt = Date.now();
    // One more report period of sim time, so every instance has reported its zeros at least once.
    await new Promise((resolve) => setTimeout(resolve, 5000 / SPEED + 500));
    const from = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 6 * POLL_MS));
    const window = deltas.filter((d) => d.at >= from);
    const polled = window.filter((d) => d.delta.sampledAt !== undefined);
    assert.ok(polled.length >= 4, `${polled.length} polls in 6 s`);
    const largest = Math.max(...window.map((d) => d.bytes));
    const parts = [...new Set(window.flatMap((d) => Object.keys(d.delta).filter((k) => !['clusterId', 'baseVersion', 'version'].includes(k))))].sort();
    const nodesSent = window.reduce((s, d) => s + (d.delta.nodes?.length ?? 0), 0);
    console.log(`# idle 255 nodes: ${window.length} deltas in 6 s (${parts.join(', ')}), ${nodesSent} nodes in them, largest ${largest} bytes, ${Math.round(window.reduce((s, d) => s + d.bytes, 0) / polled.length)} bytes per poll`);
    // A loaded machine runs the simulator's report timers late: the engine then rightly marks figures stale and
    // fresh again, and sends the nodes whose freshness flipped. Anything else a node carries is a change it must not send.
    // What the page showed of a node before a delta: its last delta since the snapshot, else the snapshot.
    const shown = (id: number, until: number): NodeView | undefined =>
      deltas.filter((d, i) => i < until && d.at >= snapshotAt).flatMap((d) => d.delta.nodes ?? []).findLast((n) => n.nodeId === id) ?? snapshot.nodes.find((n) => n.nodeId === id);
    const sent = deltas.flatMap((d, i) => (d.at >= from ? (d.delta.nodes ?? []).map((n) => ({ n, before: shown(n.nodeId, i) })) : []));
    const freshnessOnly = ({ n, before }: (typeof sent)[number]): boolean => !sameValue(n, before) && sameValue(withoutStale(n), withoutStale(before));
    const otherThanFreshness = sent.filter((s) => !freshnessOnly(s)).map(({ n }) => n.nodeId);
    assert.deepEqual(otherThanFreshness, [], 'no node changed what it shows, so none is sent');
    assert.ok(!parts.includes('rates'), 'the cluster total is zeros again and again: not sent again');
    // Nor does the connection move with each event: a delta per poll, give or take a link that went stale and back.
    assert.ok(window.length <= polled.length + 2, `${window.length} deltas for ${polled.length} polls`);
    const calm = window.filter((d) => !d.delta.nodes);
    assert.ok(Math.max(...calm.map((d) => d.bytes)) < 1000, `the largest delta without nodes is ${largest} bytes`);
    if (sent.length === 0) assert.ok(largest < 1000, `the largest delta is ${largest} bytes`);
  } finally {
    unsubscribe();
    await engine.close();
  }
});

test('an idle 255-node simulated cluster: memory refreshes that report the same figures carry no node; a node whose memory changed is carried, alone', { timeout: 120_000 }, async () => {
  const { file, cleanup } = await tempRecording();
  const engine = await createEngine({
    host: 'serve',
    pollIntervalMs: POLL_MS,
    memoryRefreshMs: MEMORY_REFRESH_MS,
    recordFile: file,
    // No SQL node: this is about the management server's figures (a second's CPU reading changes every node's threads).
    simulator: { scenario: 'idle', dataNodes: 144, mgmNodes: 2, apiNodes: 109, speed: SPEED, sql: false },
  });
  const sim = engine.simulator;
  assert.ok(sim);
  const deltas: Array<{ at: number; delta: SnapshotDelta; bytes: number }> = [];
  const unsubscribe = engine.subscribe((m) => {
    if (m.type === 'delta') deltas.push({ at: Date.now(), delta: m.delta, bytes: Buffer.byteLength(JSON.stringify(m)) });
  });
  try {
    // Until a fill has three readings its trend is unknown; the reading that makes it known (flat: not filling)
    // changes every node once. The refreshes after it are the idle ones.
    await waitFor(
      'every data node with rates, memory and its trend',
      async () => {
        const s = await engine.handlers.getSnapshot({});
        return s.nodes.length === 255 && s.nodes.filter((n) => n.type === 'NDB').every((n) => n.rates !== null && n.memory.data?.trend != null && n.memory.index?.trend != null);
      },
      60_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 5000 / SPEED + 500));
    const from = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 3 * MEMORY_REFRESH_MS + 500));
    const until = Date.now();
    const window = deltas.filter((d) => d.at >= from && d.at < until);
    // The refreshes in the window, as the engine was told them: every data node's two figures each time.
    const refreshes = (await readRecording(file)).lines.filter((l) => l.kind === 'memory' && l.t >= from && l.t < until);
    assert.ok(refreshes.length >= 2, `${refreshes.length} memory refreshes in the window`);
    for (const r of refreshes) assert.equal(r.kind === 'memory' && r.events.length, 144 * 2);
    const nodesSent = window.reduce((s, d) => s + (d.delta.nodes?.length ?? 0), 0);
    const largest = Math.max(...window.map((d) => d.bytes));
    console.log(`# idle 255 nodes, ${refreshes.length} memory refreshes: ${window.length} deltas in ${until - from} ms, ${nodesSent} nodes in them, largest ${largest} bytes, ${window.reduce((s, d) => s + d.bytes, 0)} bytes in all`);
    assert.deepEqual(window.filter((d) => d.delta.nodes).map((d) => d.delta.nodes!.map((n) => n.nodeId)), [], 'the same figures again change nothing a node shows');
    assert.ok(largest < 1000, `the largest delta is ${largest} bytes`);

    // Node 3 reports other figures (a scheduled report, gth 0): it alone is sent, with them.
    // Said again until a push carries it: on a loaded machine a refresh (node 3's real figures again) could land
    // between the report and the next push, which then rightly has nothing of node 3 to send.
    const changedAt = Date.now();
    let saidAt = 0;
    const carried = await waitFor(
      'a delta with node 3',
      () => {
        const found = deltas.find((d) => d.at >= changedAt && d.delta.nodes?.some((n) => n.nodeId === 3 && n.memory.data?.usedPages === 30_000));
        if (!found && Date.now() - saidAt > 2 * POLL_MS) {
          sim.model.emit({ type: MEMORY_USAGE, source: 3, body: [0, 32768, 30_000, 65_536, DATA_MEMORY_BLOCK] });
          saidAt = Date.now();
        }
        return found;
      },
      60_000,
    );
    assert.deepEqual(carried.delta.nodes?.map((n) => [n.nodeId, n.memory.data?.usedPages]), [[3, 30_000]]);
    // The next refresh reports the node's real figures again: a change, so it is sent again, alone.
    const back = await waitFor('node 3 back to its real figures', () =>
      deltas.find((d) => d.at > carried.at && d.delta.nodes?.some((n) => n.nodeId === 3 && n.memory.data?.usedPages !== 30_000)),
    );
    assert.deepEqual(back.delta.nodes?.map((n) => n.nodeId), [3]);
  } finally {
    unsubscribe();
    await engine.close();
    await cleanup();
  }
});
