import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Timeline } from '../../contract.js';
import { fitSpan, MIN_ZOOM_MS, zoomSpan } from '../../view-model/charts/timeline-span.js';

type Seg = Timeline['nodes'][number]['segments'][number];
const seg = (status: Seg['status'], from: number, to: number | null, startPhase = 0): Seg => ({ status, startPhase, from, to });

/** ndbtop started 60 s ago in a 5 min window; then 8 data nodes restarted one after another, 4 s each. */
function rollingRestart(now: number): Timeline {
  const seen = now - 60_000;
  const nodes = Array.from({ length: 8 }, (_, i) => {
    const down = now - 40_000 + i * 4_000;
    return { nodeId: i + 1, segments: [seg('STARTED', seen, down), seg('SHUTTING_DOWN', down, down + 1000), seg('STARTING', down + 1000, down + 4000, 4), seg('STARTED', down + 4000, null)] };
  });
  return { fromMs: now - 300_000, toMs: now, nodes } as Timeline;
}

test('the restart timeline spans the rolling restart, not the empty window before ndbtop started', () => {
  const now = 1_000_000_000;
  const t = rollingRestart(now);
  const fit = fitSpan(t, now);
  assert.equal(fit.to, now);
  assert.ok(fit.from < now - 40_000 && fit.from > now - 45_000, `starts just before the first restart: ${now - fit.from} ms back`);
  // Each node's 4 s restart is now about a tenth of the width, where the 5 min window made it 1.3 %.
  const share = 4000 / (fit.to - fit.from);
  assert.ok(share > 0.08, `a restart takes ${(share * 100).toFixed(1)} % of the width`);
});

test('without restart activity the timeline starts at the first sample; a fit is never narrower than 30 s', () => {
  const now = 1_000_000_000;
  const quiet = { fromMs: now - 300_000, toMs: now, nodes: [{ nodeId: 1, segments: [seg('STARTED', now - 120_000, null)] }] } as Timeline;
  assert.deepEqual(fitSpan(quiet, now), { from: now - 126_000, to: now });
  const fresh = { fromMs: now - 300_000, toMs: now, nodes: [{ nodeId: 1, segments: [seg('STARTED', now - 5_000, null)] }] } as Timeline;
  assert.deepEqual(fitSpan(fresh, now), { from: now - 30_000, to: now });
  const empty = { fromMs: now - 300_000, toMs: now, nodes: [] } as Timeline;
  assert.deepEqual(fitSpan(empty, now), { from: now - 300_000, to: now });
});

test('zoom keeps now at the right edge: in down to ten seconds, out up to the whole window', () => {
  const now = 1_000_000_000;
  const fit = { from: now - 40_000, to: now };
  assert.deepEqual(zoomSpan(fit, now - 300_000, 2), { from: now - 20_000, to: now });
  assert.deepEqual(zoomSpan(fit, now - 300_000, 64), { from: now - MIN_ZOOM_MS, to: now });
  assert.deepEqual(zoomSpan(fit, now - 300_000, 1 / 4), { from: now - 160_000, to: now });
  assert.deepEqual(zoomSpan(fit, now - 300_000, 1 / 64), { from: now - 300_000, to: now });
});
