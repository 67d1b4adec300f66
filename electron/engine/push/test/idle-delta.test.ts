import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SnapshotDelta } from '../../../contract/snapshot.js';
import { createEngine } from '../../create-engine.js';
import { waitFor } from '../../test/helpers.js';

const POLL_MS = 1000;
/** Report periods of sim time per real second: every TC and LQH instance sends its zeros twice a real 5 s. */
const SPEED = 2;

test('an idle 255-node simulated cluster: after warm-up no delta carries a node, and none is over a few hundred bytes', { timeout: 120_000 }, async () => {
  // 144 data nodes (4 TC and 4 LQH instances each: 1,152 reports of zeros per period), 2 management and 109 API
  // nodes. Memory is read once, at connect: this test is about the statistics reports.
  const engine = await createEngine({
    host: 'serve',
    pollIntervalMs: POLL_MS,
    memoryRefreshMs: 3_600_000,
    simulator: { scenario: 'idle', dataNodes: 144, mgmNodes: 2, apiNodes: 109, speed: SPEED },
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
    const withNodes = window.filter((d) => (d.delta.nodes?.length ?? 0) > 0).map((d) => d.delta.nodes!.map((n) => n.nodeId));
    assert.deepEqual(withNodes, [], 'no node changed what it shows, so none is sent');
    assert.ok(largest < 1000, `the largest delta is ${largest} bytes`);
  } finally {
    unsubscribe();
    await engine.close();
  }
});
