import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Incident } from '../contract.js';
import { incidentTimeline, recentIncident, RECENT_MS } from '../view-model/incidents/incident-timeline.js';

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
