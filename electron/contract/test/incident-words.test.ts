import assert from 'node:assert/strict';
import { test } from 'node:test';
import { incidentLine, restartWords } from '../page-safe/incident-words.js';
import type { Incident } from '../schemas/incidents.js';

const at = Date.UTC(2026, 11, 7, 10, 16, 2, 90);
const restart = { startedAt: at, backAt: null, totalSecs: null, usualSecs: 12, phases: [] };
const stamp = (t: number): string => `<${t}>`;

test('restartWords writes the restart\'s start with the surface\'s own time formatter', () => {
  assert.equal(restartWords(restart, stamp), `restarting since <${at}>, not back yet (usual 12 s)`);
  assert.equal(restartWords({ ...restart, backAt: at + 9000, totalSecs: 9 }, stamp), 'back after 9 s (usual 12 s)');
  assert.equal(restartWords({ ...restart, startedAt: null }, stamp), 'not restarting (yet)');
});

test('incidentLine writes the time noticed and the restart\'s start with one formatter', () => {
  const i: Incident = {
    id: 'inc-1',
    nodeIds: [3],
    startedAt: at - 4000,
    noticedAt: at - 4000,
    planned: false,
    cause: { kind: 'error', text: 'Node 3 shut down after an error', evidence: [] },
    before: { from: at - 64_000, figures: [], events: [] },
    restart,
  };
  assert.equal(incidentLine(i, stamp), `<${at - 4000}>  node 3  error  Node 3 shut down after an error; restarting since <${at}>, not back yet (usual 12 s)`);
});
