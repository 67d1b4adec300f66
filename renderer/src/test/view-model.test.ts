import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { connectionState } from '../components/header/ConnectionChip.js';
import { webSocketTarget } from '../bridge/bridge-target.js';
import { NO_FILTER } from '../store/ui-slice.js';
import { axisWidth, formatAxisRate, formatClock, formatDuration, formatNodeIds } from '../view-model/format.js';
import { figuresAsOf, figuresOldWhy, lastSeenText } from '../view-model/nodes/freshness.js';
import { matchesFilter, visibleEvents } from '../view-model/events/event-filter.js';
import { gridSections, layoutKey } from '../view-model/nodes/grid-layout.js';
import { phaseStep, restartProgress } from '../view-model/restarts/restart-progress.js';
import { MIN_AXIS_SPAN_MS, TICK_LABEL_PX, axisStart, timeTicks } from '../view-model/charts/time-ticks.js';
import { event, nodeView, snapshot } from './fixtures.js';

test('restart progress counts steps, not phase numbers: 101 is the last of nine', () => {
  assert.deepEqual([0, 1, 5, 8, 9, 100, 101].map(phaseStep), [0, 1, 5, 8, 9, 9, 9]);
  const restart = { startedAt: 10_000, phase: 4, phases: [], estimatedMsLeft: 30_000, startType: 2 };
  const p = restartProgress(restart, 4, 25_000, formatDuration);
  assert.equal(p.label, 'phase 4 of 9');
  assert.equal(p.elapsedMs, 15_000);
  assert.ok(Math.abs(p.fraction - 4 / 9) < 1e-9);
  assert.equal(p.estimatedMsLeft, 30_000);
  assert.equal(restartProgress({ ...restart, phase: 101 }, 101, 25_000, formatDuration).label, 'phase 101 (handover)');
  assert.equal(restartProgress({ ...restart, phase: 0 }, 0, 25_000, formatDuration).label, 'allocating memory');
  // get status may be ahead of the last StartPhaseCompleted the engine folded in: show the further one.
  assert.equal(restartProgress(restart, 6, 25_000, formatDuration).phase, 6);
});

test('what began before ndbtop watched says so: "not seen since ndbtop started", "≥ N s (under way when ndbtop connected)"', () => {
  const restart = { startedAt: 10_000, phase: 4, phases: [], estimatedMsLeft: null, startType: 2 };
  assert.equal(restartProgress(restart, 4, 25_000, formatDuration).elapsedText, formatDuration(15_000));
  assert.equal(restartProgress({ ...restart, underWayAtConnect: true }, 4, 25_000, formatDuration).elapsedText, `≥ ${formatDuration(15_000)} (under way when ndbtop connected)`);
  assert.equal(lastSeenText(10_000, true, 25_000, formatClock, formatDuration), 'not seen since ndbtop started');
  assert.equal(lastSeenText(10_000, false, 25_000, formatClock, formatDuration), `last seen ${formatClock(10_000)} (${formatDuration(15_000)} ago)`);
});

test('figures are old once the page lost serve, or ndbtop the management server, and as of the last sample', () => {
  const live = snapshot([]).connection;
  assert.equal(figuresAsOf('open', live, 5000), null);
  assert.equal(figuresAsOf('lost', live, 5000), 5000);
  for (const status of ['reconnecting', 'offline', 'stale'] as const) assert.equal(figuresAsOf('open', { ...live, status }, 5000), 5000, status);
  assert.equal(figuresAsOf('open', { ...live, status: 'failed-over' }, 5000), null);
});

test('a control that cannot act on old figures says why: the page lost ndbtop, or ndbtop the management server', () => {
  const live = snapshot([]).connection;
  assert.equal(figuresOldWhy('open', live), null);
  assert.equal(figuresOldWhy('lost', live), 'this page lost its link to ndbtop');
  assert.equal(figuresOldWhy('open', { ...live, status: 'reconnecting' }), 'ndbtop lost the management server');
  assert.equal(figuresOldWhy('open', { ...live, status: 'stale' }), 'the management server stopped answering');
  assert.equal(figuresOldWhy('open', { ...live, status: 'refused' }), 'the management server refuses this session');
  assert.equal(figuresOldWhy('open', { ...live, status: 'failed-over' }), null);
});

test('event filters: category, severity, node as source or subject, and every word of the search', () => {
  const events = [
    event(1, { category: 'STARTUP', severity: 'INFO', text: 'Node 3: start phase 4 completed', sourceNodeId: 3 }),
    event(2, { category: 'NODERESTART', severity: 'ALERT', name: 'NODE_FAILREP', text: 'Node 1: node 4 failed', sourceNodeId: 1, subjectNodeId: 4 }),
    event(3, { category: 'CHECKPOINT', severity: null, text: 'Local checkpoint 12 started', sourceNodeId: 2 }),
  ];
  const seqs = (f: Partial<typeof NO_FILTER>) => events.filter((e) => matchesFilter(e, { ...NO_FILTER, ...f })).map((e) => e.seq);
  assert.deepEqual(seqs({}), [1, 2, 3]);
  assert.deepEqual(seqs({ categories: ['STARTUP'] }), [1]);
  assert.deepEqual(seqs({ severities: ['ALERT', 'CRITICAL'] }), [2]);
  assert.deepEqual(seqs({ nodeId: 4 }), [2]);
  assert.deepEqual(seqs({ text: 'node failed' }), [2]);
  assert.deepEqual(seqs({ text: 'CHECKPOINT 12' }), [3]);
  assert.deepEqual(seqs({ text: 'phase 5' }), []);
  assert.deepEqual(
    visibleEvents(events, NO_FILTER, false).map((e) => e.seq),
    [3, 2, 1],
  );
  assert.deepEqual(
    visibleEvents(events, NO_FILTER, true).map((e) => e.seq),
    [1, 2, 3],
  );
});

test('grid: node groups in order, then management, then API nodes with free slots folded', () => {
  const nodes = new Map(
    [
      nodeView(1, { nodeGroup: 1 }),
      nodeView(2, { nodeGroup: 0 }),
      nodeView(3, { nodeGroup: 0 }),
      nodeView(4, { nodeGroup: 1 }),
      nodeView(5, { nodeGroup: 'none' }),
      nodeView(145, { type: 'MGM', nodeGroup: null }),
      nodeView(200, { type: 'API', status: 'CONNECTED', nodeGroup: null }),
      nodeView(201, { type: 'API', status: 'NO_CONTACT', address: null, nodeGroup: null }),
      nodeView(202, { type: 'API', status: 'NO_CONTACT', address: null, nodeGroup: null }),
    ].map((n) => [n.nodeId, n]),
  );
  const groups = [0, 1].map((g) => ({ nodeGroup: g, nodeIds: [], live: 2, health: 'OK' as const }));
  assert.deepEqual(gridSections(nodes, groups), [
    { kind: 'nodegroup', nodeGroup: 0, nodeIds: [2, 3] },
    { kind: 'nodegroup', nodeGroup: 1, nodeIds: [1, 4] },
    { kind: 'ungrouped', nodeIds: [5] },
    { kind: 'mgm', nodeIds: [145] },
    { kind: 'api', nodeIds: [200], freeSlots: [201, 202] },
  ]);
  // A status change does not change the grid's shape; an API node connecting does.
  const key = layoutKey(nodes);
  assert.equal(layoutKey(new Map(nodes).set(2, nodeView(2, { nodeGroup: 0, status: 'NO_CONTACT' }))), key);
  assert.notEqual(layoutKey(new Map(nodes).set(201, nodeView(201, { type: 'API', status: 'CONNECTED', nodeGroup: null }))), key);
});

test('connection state: trouble outranks the mode, a healthy simulated cluster says so', () => {
  const c = snapshot([]).connection;
  assert.equal(connectionState(null), 'connecting');
  assert.equal(connectionState(c), 'simulated');
  assert.equal(connectionState({ ...c, mode: 'live' }), 'live');
  assert.equal(connectionState({ ...c, mode: 'replay' }), 'replay');
  assert.equal(connectionState({ ...c, status: 'failed-over' }), 'failed-over');
  assert.equal(connectionState({ ...c, status: 'reconnecting' }), 'reconnecting');
});

test('the WebSocket target follows the page: scheme, host and token', () => {
  assert.deepEqual(webSocketTarget({ protocol: 'http:', host: '127.0.0.1:8080', search: '' }), { url: 'ws://127.0.0.1:8080/ws', token: undefined });
  assert.deepEqual(webSocketTarget({ protocol: 'https:', host: 'wall:443', search: '?token=s3cret-token&x=1' }), { url: 'wss://wall:443/ws', token: 's3cret-token' });
});

test('time ticks: round clock times, never closer than a label needs, inside the window', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1e12, max: 2e12 }), fc.constantFrom(60_000, 300_000, 900_000, 3_600_000), fc.integer({ min: 100, max: 3000 }), (from, span, width) => {
      const ticks = timeTicks(from, from + span, width);
      assert.ok(ticks.length >= 1, `no tick for ${span} ms over ${width} px`);
      for (const t of ticks) assert.ok(t >= from && t <= from + span);
      for (let i = 1; i < ticks.length; i++) assert.ok((((ticks[i] ?? 0) - (ticks[i - 1] ?? 0)) / span) * width >= TICK_LABEL_PX);
    }),
  );
  assert.deepEqual(timeTicks(0, 1000, 50), []);
});

test('axis labels are short and carry the unit: 1.2M/s, 20k/s; the axis is as wide as its widest label', () => {
  assert.equal(formatAxisRate(1_200_000), '1.2M/s');
  assert.equal(formatAxisRate(20_000), '20k/s');
  assert.equal(formatAxisRate(1_250_000), '1.25M/s');
  assert.equal(formatAxisRate(125_000), '125k/s');
  assert.equal(formatAxisRate(0), '0/s');
  assert.equal(formatAxisRate(2.28e11), '228G/s');
  assert.ok(axisWidth(['1.25M/s']) >= 7 * 8);
});

test('node id lists fold runs into ranges, so a heading over 144 data nodes is one line', () => {
  assert.equal(formatNodeIds(Array.from({ length: 144 }, (_, i) => i + 1)), 'nodes 1–144');
  assert.equal(formatNodeIds([5, 1, 2, 3, 9, 10, 12]), 'nodes 1–3, 5, 9, 10, 12');
  assert.equal(formatNodeIds([7]), 'node 7');
  assert.equal(formatNodeIds([3, 3, 4]), 'nodes 3, 4');
});

test('a chart whose samples are fewer than its window spans what there is (at least a minute), never an empty stretch before the start', () => {
  const until = 10_000_000;
  const fiveMin = 300_000;
  // Seconds after a start: a minute, ending now.
  assert.equal(axisStart(until - 6_000, until, fiveMin), until - MIN_AXIS_SPAN_MS);
  // Two minutes of samples: from the first.
  assert.equal(axisStart(until - 120_000, until, fiveMin), until - 120_000);
  // The window is full, or there are no samples: the window.
  assert.equal(axisStart(until - 400_000, until, fiveMin), until - fiveMin);
  assert.equal(axisStart(undefined, until, fiveMin), until - fiveMin);
  // A 1 m window is never widened.
  assert.equal(axisStart(until - 6_000, until, 60_000), until - 60_000);
});
