import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Incident } from '../contract.js';
import { incidentTimeline, recentIncident, RECENT_MS, timelineTicks } from '../view-model/incidents/incident-timeline.js';

const T = 1_700_000_000_000;
const forced = 'Node 3: forced shutdown (restart) in start phase 255, error 2315';

const incident: Incident = {
  id: 'inc-1',
  nodeIds: [3],
  startedAt: T - 5000,
  noticedAt: T,
  planned: false,
  cause: {
    kind: 'heartbeat',
    text: 'Node 3 was declared dead by its neighbours after missed heartbeats',
    evidence: [
      { at: T - 5000, source: 'event', text: 'Node 4: missed 2 heartbeats from node 3' },
      { at: T, source: 'event', text: `${forced}: Node declared dead. See error log for details` },
    ],
  },
  before: {
    from: T - 60_000,
    figures: [{ nodeId: 3, name: 'main thread CPU', unit: '%', last: 99, peak: 100, at: T - 1000, source: 'ndbinfo' }],
    events: [
      { at: T - 5000, source: 'event', text: 'Node 4: missed 2 heartbeats from node 3' },
      { at: T, source: 'event', text: forced },
      { at: T + 100, source: 'event', text: 'Node 1: node 3 failed' },
    ],
  },
  restart: { startedAt: T + 8000, backAt: T + 11_000, totalSecs: 3, usualSecs: 4, phases: [{ name: 'start phase 1', secs: 1, usualSecs: 1 }, { name: 'start phase 2', secs: 2, usualSecs: 3 }] },
};

test('the timeline: evidence marked, a forced shutdown once (with the manual text), phases one after the other from the restart', () => {
  const t = incidentTimeline(incident, T + 20_000);
  const texts = t.marks.map((m) => `${m.offsetSecs} ${m.lane} ${m.evidence ? '*' : ''}${m.text}`);
  assert.deepEqual(texts, [
    '-5 event *Node 4: missed 2 heartbeats from node 3',
    '-1 figure Node 3: main thread CPU 99 % (peak 100 %)',
    `0 event *${forced}: Node declared dead. See error log for details`,
    '0 status ndbtop saw node 3 leave STARTED',
    '0.1 event Node 1: node 3 failed',
    '8 phase restart began',
    '8 phase start phase 1: 1 s (usual 1 s)',
    '9 phase start phase 2: 2 s (usual 3 s)',
    '11 phase back STARTED',
  ]);
  assert.equal(t.to, T + 11_000, 'the axis ends when the node is back');
  assert.ok(t.from >= incident.before.from && t.from < T - 5000, 'from just before the first sign');
});

test('a badge while the incident is recent or its node not back', () => {
  assert.equal(recentIncident([incident], 3, T + 1000)?.id, 'inc-1');
  assert.equal(recentIncident([incident], 3, T + RECENT_MS + 1), null);
  assert.equal(recentIncident([{ ...incident, restart: { ...incident.restart, backAt: null } }], 3, T + RECENT_MS + 1)?.id, 'inc-1');
  assert.equal(recentIncident([incident], 4, T), null);
});

test('the axis ticks are round seconds from the fall, each label once, minutes for a long restart', () => {
  // A 4.4 s axis (the shape seen on screen: six even ticks read "-2 s, -1 s, -1 s, 0 s, +1 s, +2 s").
  const short = timelineTicks({ from: T - 2200, to: T + 2200, marks: [] }, T);
  assert.deepEqual(short.map((t) => t.label), ['-2 s', '-1 s', '0 s', '+1 s', '+2 s']);
  assert.deepEqual(short.map((t) => t.at - T), [-2000, -1000, 0, 1000, 2000]);
  const long = timelineTicks(incidentTimeline({ ...incident, restart: { ...incident.restart, backAt: T + 600_000 } }, T + 600_000), T);
  assert.deepEqual(long.map((t) => t.label), ['0 min', '+5 min', '+10 min']);
  for (const span of [900, 3_000, 47_000, 61_000, 3_600_000, 86_400_000]) {
    const ticks = timelineTicks({ from: T - span / 4, to: T + span, marks: [] }, T);
    assert.ok(ticks.length >= 2 && ticks.length <= 6, `${span} ms: ${ticks.length} ticks`);
    assert.equal(new Set(ticks.map((t) => t.label)).size, ticks.length, `${span} ms: ${ticks.map((t) => t.label).join(', ')}`);
  }
});
