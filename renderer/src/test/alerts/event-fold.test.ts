import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { NO_FILTER } from '../../store/ui-slice.js';
import { foldEvents } from '../../view-model/events/event-fold.js';
import { visibleEvents } from '../../view-model/events/event-filter.js';
import type { EventView } from '../../contract.js';
import { event } from '../fixtures.js';

const failCompleted = (seq: number, source: number) => event(seq, { typeId: 22, name: 'NodeFailCompleted', category: 'NODERESTART', severity: 'ALERT', sourceNodeId: source, subjectNodeId: 3, text: `failure handling of node 3 completed by node ${source}` });

test('a failure-handling flood about one node folds into one row with its count and every reporting node', () => {
  const events = [event(1, { sourceNodeId: 3 }), ...Array.from({ length: 143 }, (_, i) => failCompleted(2 + i, 4 + (i % 5))), event(200, { sourceNodeId: 3 })];
  const newestFirst = foldEvents(visibleEvents(events, NO_FILTER, false));
  assert.deepEqual(newestFirst.map((f) => f.events.length), [1, 143, 1]);
  const flood = newestFirst[1];
  assert.ok(flood);
  assert.equal(flood.event.seq, 144, 'the row shows the newest event of the run');
  assert.equal(flood.key, 2, 'keyed by the oldest, so the key holds while the run grows');
  assert.deepEqual(flood.sources, [4, 5, 6, 7, 8]);
  const following = foldEvents(visibleEvents(events, NO_FILTER, true));
  assert.deepEqual(following.map((f) => [f.key, f.events.length]), [[1, 1], [2, 143], [200, 1]]);
  // Filters choose the events first; what is left folds.
  const fromNode5 = foldEvents(visibleEvents(events, { ...NO_FILTER, nodeId: 5 }, false));
  assert.deepEqual(fromNode5.map((f) => [f.sources, f.events.length]), [[[5], 29]]);
});

test('runs break on another type or another subject; without a subject the reporting node is what a run is about', () => {
  const rows = foldEvents([
    failCompleted(1, 4),
    event(2, { typeId: 22, name: 'NodeFailCompleted', subjectNodeId: 5, sourceNodeId: 4 }),
    event(3, { sourceNodeId: 7 }),
    event(4, { sourceNodeId: 7 }),
    event(5, { sourceNodeId: 8 }),
    failCompleted(6, 4),
  ]);
  assert.deepEqual(rows.map((f) => f.events.map((e) => e.seq)), [[1], [2], [3, 4], [5], [6]]);
});

test('folding keeps every event exactly once, in order, and no two neighbouring rows could have been one', () => {
  const arbitrary = fc.array(fc.record({ typeId: fc.constantFrom(13, 22), subject: fc.option(fc.constantFrom(3, 4)), source: fc.constantFrom(1, 2, 3) }), { maxLength: 200 });
  fc.assert(
    fc.property(arbitrary, (parts) => {
      const events = parts.map((p, i) => event(i + 1, { typeId: p.typeId, name: `T${p.typeId}`, subjectNodeId: p.subject, sourceNodeId: p.source }));
      const rows = foldEvents(events);
      assert.deepEqual(rows.flatMap((f) => f.events), events);
      for (let i = 1; i < rows.length; i++) {
        const a = rows[i - 1]?.event;
        const b = rows[i]?.event;
        assert.ok(a && b);
        assert.ok(a.typeId !== b.typeId || (a.subjectNodeId ?? a.sourceNodeId) !== (b.subjectNodeId ?? b.sourceNodeId));
      }
    }),
  );
});

test('memory threshold crossings of many nodes fold into one row per direction and severity, every event kept', () => {
  const crossing = (seq: number, node: number, gth: number, severity: EventView['severity'] = 'INFO') =>
    event(seq, { typeId: 50, name: 'MemoryUsage', category: 'STATISTICS', severity, sourceNodeId: node, fields: { gth, page_size_bytes: 32768, pages_used: 60_000, pages_total: 65_536, block: 249 } });
  const up = Array.from({ length: 36 }, (_, i) => crossing(1 + i, 4 + i, 1));
  // The crossing that raised the cluster-wide alert carries its severity: a row of its own.
  const raising = crossing(37, 40, 1, 'CRITICAL');
  const more = Array.from({ length: 104 }, (_, i) => crossing(38 + i, 41 + i, 1));
  const down = Array.from({ length: 3 }, (_, i) => crossing(142 + i, 4 + i, -1));
  const report = event(145, { typeId: 50, name: 'MemoryUsage', sourceNodeId: 7, fields: { gth: 0, block: 249 } });
  const report2 = event(146, { typeId: 50, name: 'MemoryUsage', sourceNodeId: 8, fields: { gth: 0, block: 249 } });
  const all = [...up, raising, ...more, ...down, report, report2];
  const rows = foldEvents(all);
  assert.deepEqual(rows.map((f) => [f.events.length, f.nodes.length]), [[36, 36], [1, 1], [104, 104], [3, 3], [1, 1], [1, 1]]);
  assert.deepEqual(rows.flatMap((f) => f.events), all, 'nothing dropped, nothing reordered');
  assert.deepEqual(rows[2]?.nodes.slice(0, 3), [41, 42, 43]);
  // Another memory (index, block 248) is another run.
  const index = crossing(200, 9, 1);
  index.fields = { ...index.fields, block: 248 };
  assert.equal(foldEvents([crossing(199, 8, 1), index]).length, 2);
});
