import assert from 'node:assert/strict';
import { test } from 'node:test';
import { connectionState } from '../components/header/ConnectionChip.js';
import { HistoryRing } from '../store/history-ring.js';
import { createAppStore } from '../store/store.js';
import { persistUiPrefs } from '../store/ui-prefs.js';
import { connectionProblem, connectionProblemTitle } from '../view-model/nodes/connection-problem.js';
import { lastSample, trendOf, trendText } from '../view-model/nodes/headline.js';
import { snapshot } from './fixtures.js';

const minute = (value: (i: number) => number, now: number) => {
  const at = Array.from({ length: 60 }, (_, i) => now - 60_000 + i * 1000);
  return { at, values: at.map((_, i) => value(i)) };
};

test('headline trend: the current rate against the mean of the minute before it', () => {
  const now = 1_000_000;
  const flat = minute(() => 1000, now);
  assert.deepEqual(trendOf(1300, flat, now), { direction: 'up', change: 0.3, spanMs: 60_000 });
  assert.equal(trendText(trendOf(1300, flat, now)), '▲ 30 % vs last min');
  assert.equal(trendOf(500, flat, now).direction, 'down');
  assert.equal(trendText(trendOf(500, flat, now)), '▼ 50 % vs last min');
  assert.equal(trendOf(1020, flat, now).direction, 'steady', 'a 2 % wobble is steady');
  assert.equal(trendOf(5, minute(() => 0, now), now).direction, 'up');
  // Without a minute behind it (a fresh start) or a current value there is nothing to compare.
  assert.equal(trendOf(1000, minute(() => NaN, now), now).direction, 'unknown');
  assert.equal(trendOf(null, flat, now).direction, 'unknown');
  assert.equal(trendText(trendOf(null, flat, now)), '');
  // Right after a start the baseline is seconds, not a minute, and the text says how many.
  const fresh = { at: flat.at.slice(-12), values: flat.values.slice(-12) };
  assert.equal(trendText(trendOf(1300, fresh, now)), '▲ 30 % vs last 12 s');
  // Samples older than a minute, or the current one, are not the baseline.
  const old = { at: [...flat.at.map((t) => t - 120_000), now], values: [...flat.values, 99_999] };
  assert.equal(trendOf(1000, old, now).direction, 'unknown');
});

test('the history ring joins a second answer for the same seconds (cluster totals after node series) into the same points', () => {
  const ring = new HistoryRing(10, () => true);
  ring.load({ at: [1000, 2000], series: [{ key: 'node.1.transactions', metric: 'transactions', nodeId: 1, values: [1, 2] }] });
  ring.load({ at: [1000, 2000, 3000], series: [{ key: 'cluster.reads', metric: 'reads', nodeId: null, values: [10, 20, 30] }] });
  assert.equal(ring.size, 3);
  assert.deepEqual(ring.series('cluster.reads', 0, 5000), { at: [1000, 2000, 3000], values: [10, 20, 30] });
  assert.deepEqual(ring.series('node.1.transactions', 0, 2000), { at: [1000, 2000], values: [1, 2] });
});

test('connection problem: the cause in words, where, and when the next try is', () => {
  const c = { ...snapshot([]).connection, mode: 'live' as const, mgmd: null };
  const refused = { ...c, status: 'connecting' as const, lastError: 'no management server reachable: db1.example:1186 (ECONNREFUSED)', retryAt: 10_000 };
  assert.equal(connectionProblem(refused, 6_200), 'connection refused at db1.example:1186, retrying in 4 s');
  assert.equal(connectionProblem(refused, 10_500), 'connection refused at db1.example:1186, retrying now');
  assert.equal(connectionProblem({ ...refused, lastError: 'no management server reachable: 10.0.0.1:1186 (ETIMEDOUT)' }, 6_200), 'no answer at 10.0.0.1:1186, retrying in 4 s');
  assert.equal(connectionProblem({ ...refused, lastError: 'something odd', retryAt: null }, 0), 'something odd');
  assert.equal(connectionProblem({ ...c, status: 'live', lastError: 'old news' }, 0), null);
  assert.equal(connectionProblem(null, 0), null);
  // The reason the engine holds for the outage, with its age: the latest error (another retry's) stays on hover.
  const held = { ...refused, lastError: 'event stream: connect ECONNRESET', trouble: { reason: 'no management server reachable: db1.example:1186 (ECONNREFUSED)', since: 2_000 } };
  assert.equal(connectionProblem(held, 43_000), 'connection refused at db1.example:1186 for 41 s, retrying now');
  // A dropped link says how long ago it was lost, never "closed the connection for 28 s"; the words are on hover.
  const dropped = { ...c, status: 'reconnecting' as const, lastError: 'management server 127.0.0.1:1186 closed the connection', retryAt: 31_000, trouble: { reason: 'management server 127.0.0.1:1186 closed the connection', since: 2_000 } };
  assert.equal(connectionProblem(dropped, 30_000), 'connection lost 28 s ago, retrying in 1 s');
  assert.equal(connectionProblemTitle(dropped), 'management server 127.0.0.1:1186 closed the connection');
  assert.equal(connectionProblemTitle(held), 'no management server reachable: db1.example:1186 (ECONNREFUSED)\nlatest: event stream: connect ECONNRESET');
});

test('a lost link to the engine outranks whatever the engine last said', () => {
  const c = snapshot([]).connection;
  assert.equal(connectionState({ ...c, mode: 'live' }, 'lost'), 'disconnected');
  assert.equal(connectionState(null, 'lost'), 'disconnected');
  assert.equal(connectionState({ ...c, mode: 'live' }, 'open'), 'live');
});

test('theme, time window and phase marks survive a reload; nonsense in storage is ignored', () => {
  const saved = new Map<string, string>();
  const storage = { getItem: (k: string) => saved.get(k) ?? null, setItem: (k: string, v: string) => void saved.set(k, v) };
  const store = createAppStore();
  const stop = persistUiPrefs(store, storage);
  assert.equal(store.getState().ui.theme, 'system', 'the browser decides until the viewer does');
  store.setUi({ theme: 'light', window: '15m', phaseMarks: [{ at: 1234, label: 'warm-up' }] });
  stop();
  const reloaded = createAppStore();
  persistUiPrefs(reloaded, storage)();
  assert.equal(reloaded.getState().ui.theme, 'light');
  assert.equal(reloaded.getState().ui.window, '15m');
  assert.deepEqual(reloaded.getState().ui.phaseMarks, [{ at: 1234, label: 'warm-up' }]);
  saved.set('ndbtop.theme', 'purple');
  saved.set('ndbtop.phaseMarks', '{"not":"a list"}');
  const other = createAppStore();
  persistUiPrefs(other, storage)();
  assert.equal(other.getState().ui.theme, 'system');
  assert.deepEqual(other.getState().ui.phaseMarks, []);
});

test('headline: the last figure a lost source gave is its newest finite sample, none when it gave none', () => {
  assert.equal(lastSample({ values: [100, 200, NaN, NaN] }), 200);
  assert.equal(lastSample({ values: [NaN] }), null);
  assert.equal(lastSample({ values: [] }), null);
});
