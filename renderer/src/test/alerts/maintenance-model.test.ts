import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_MAINTENANCE_MS, MAX_MAINTENANCE_MS, type AlertHistory, type MaintenanceWindow } from '../../contract.js';
import { ALERT_KINDS, criticalSilence, criticalSilenceText, DEFAULT_DURATION, historyRows, historySummary, isOpen, linearPlace, openWindows, placeBands, rowDuration, samplePlace, silenceText, WINDOW_DURATIONS, windowBands, windowEventText, windowTiming } from '../../view-model/alerts/maintenance.js';

const open: MaintenanceWindow = { id: 'mw-1', reason: 'upgrade', silence: [...ALERT_KINDS], silenceCritical: false, openedBy: 'unnamed', start: 100_000, until: null, end: null };
const timed: MaintenanceWindow = { id: 'mw-2', reason: 'disk swap', silence: ['node-down', 'node-group-degraded'], silenceCritical: true, openedBy: 'alice@ops', start: 200_000, until: 260_000, end: null };
const ended: MaintenanceWindow = { id: 'mw-3', reason: 'old', silence: ['node-down'], silenceCritical: true, openedBy: 'bob', start: 10_000, until: null, end: 40_000 };

test('a window is open until stopped or until its duration runs out', () => {
  assert.equal(isOpen(open, 1e12), true);
  assert.equal(isOpen(timed, 259_999), true);
  assert.equal(isOpen(timed, 260_000), false, 'a duration run out before the engine ticked is not shown as open');
  assert.equal(isOpen(ended, 20_000), false);
  assert.deepEqual(openWindows([open, timed, ended], 300_000).map((w) => w.id), ['mw-1']);
});

test('what a window silences and how long it lasts, in words', () => {
  assert.equal(silenceText(open.silence, open.silenceCritical), 'all alerts (critical ones still raised)');
  assert.equal(silenceText(timed.silence, timed.silenceCritical), 'data node down without a requested stop, node group degraded, CRITICAL ONES INCLUDED');
  assert.match(windowTiming(open, 160_000), /until stopped$/);
  assert.match(windowTiming(timed, 230_000), /30 s left \(until /);
  assert.match(windowTiming(ended, 0), /\(30 s\)$/);
});

test('bands: each window clipped to the chart, an open one to its right edge, a timed one to its end', () => {
  assert.deepEqual(windowBands([open, timed, ended], 150_000, 300_000), [
    { id: 'mw-1', x1: 150_000, x2: 300_000, label: 'maintenance: upgrade' },
    { id: 'mw-2', x1: 200_000, x2: 260_000, label: 'maintenance: disk swap' },
  ]);
  assert.deepEqual(windowBands([timed], 0, 230_000), [{ id: 'mw-2', x1: 200_000, x2: 230_000, label: 'maintenance: disk swap' }], 'an open timed window ends at the chart edge while it lasts');
  assert.deepEqual(windowBands([ended], 50_000, 90_000), [], 'a window before the chart has no band');
});

test('bands placed on a time axis (timeline, heatmap) and on evenly spread samples (the small multiples)', () => {
  const bands = windowBands([timed], 100_000, 300_000);
  assert.deepEqual(placeBands(bands, linearPlace(100_000, 300_000)).map((b) => [b.left, b.width]), [[0.5, 0.8 - 0.5]]);
  // Samples every 20 s from 100 s, but the first 60 s of them missing from the answer: the sparkline spreads the
  // samples it has evenly, so the window sits where its samples are drawn, not where its time would be.
  const at = [160_000, 180_000, 200_000, 220_000, 240_000, 260_000, 280_000, 300_000];
  assert.deepEqual(placeBands(bands, samplePlace(at)).map((b) => [b.left, b.width]), [[2 / 7, 5 / 7 - 2 / 7]], 'from the sample at 200 s to the one at 260 s');
  assert.deepEqual(placeBands(windowBands([open], 0, 400_000), samplePlace(at)).map((b) => [b.left, b.width]), [[0, 1]], 'an open window over every sample');
  assert.deepEqual(placeBands(windowBands([ended], 0, 400_000), samplePlace(at)), [], 'a window before the first sample has no band');
});

test('history rows: newest first, each raised as a banner or suppressed by a named window with its reason', () => {
  const history: AlertHistory = {
    dropped: 0,
    maintenance: [],
    entries: [
      { id: 'a1', kind: 'memory-high', severity: 'warning', nodeId: 3, message: 'Node 3: data memory 81% used (≥ 80 %)', raisedAt: 1000, clearedAt: 61_000, durationMs: 60_000, silencedBy: null },
      { id: 's1', kind: 'node-down', severity: 'critical', nodeId: 2, message: 'Node 2 is down', raisedAt: 5000, clearedAt: null, durationMs: null, silencedBy: 'mw-2' },
      { id: 's2', kind: 'node-down', severity: 'critical', nodeId: 4, message: 'Node 4 is down', raisedAt: 3000, clearedAt: 4000, durationMs: 1000, silencedBy: 'mw-9' },
    ],
  };
  const rows = historyRows(history, [open, timed]);
  assert.deepEqual(rows.map((r) => [r.id, r.outcome, r.why]), [
    ['s1', 'suppressed', 'maintenance window mw-2: disk swap'],
    ['s2', 'suppressed', 'maintenance window mw-9'],
    ['a1', 'raised', null],
  ]);
  assert.deepEqual(historySummary(rows), { raised: 1, suppressed: 2, open: 1 });
  assert.equal(rowDuration(rows[0]!, 47_000), 'on for 42 s');
  assert.equal(rowDuration(rows[2]!, 47_000), '1 min 00 s');
});

// Issue 35 item 1: a window silenced critical alerts without saying so anywhere but its own panel.
test('the header names the open window that silences critical alerts, its opener and its end; none that does not', () => {
  assert.equal(criticalSilence([open, ended], 150_000), undefined, 'open lets criticals through, ended is over');
  const w = criticalSilence([open, timed, ended], 230_000);
  assert.equal(w?.id, 'mw-2');
  assert.match(criticalSilenceText(timed), /^critical alerts silenced by alice@ops until \d\d:\d\d:\d\d$/);
  assert.equal(criticalSilence([timed], 260_000), undefined, 'not once its time ran out');
});

test('the page offers durations up to the bound, starting on the engine\'s default; window events in words', () => {
  assert.equal(Math.max(...WINDOW_DURATIONS.map((d) => d.ms)), MAX_MAINTENANCE_MS);
  assert.equal(WINDOW_DURATIONS[DEFAULT_DURATION]?.ms, DEFAULT_MAINTENANCE_MS);
  const opened = windowEventText({ windowId: 'mw-2', what: 'opened', at: 200_000, by: 'alice@ops', reason: 'disk swap', until: 260_000, silenceCritical: true });
  assert.match(opened, /^mw-2 opened by alice@ops \(disk swap\), until \d\d:\d\d:\d\d, critical alerts silenced$/);
  assert.equal(windowEventText({ windowId: 'mw-2', what: 'expired', at: 260_000, by: null, reason: 'disk swap', until: 260_000, silenceCritical: true }), 'mw-2 expired (disk swap)');
});
