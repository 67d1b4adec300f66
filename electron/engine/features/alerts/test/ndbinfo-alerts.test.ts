import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Alert } from '../../../../contract/schemas/events.js';
import type { LogRow, TransporterRow } from '../../../../../ndbinfo/client/rows.js';
import { ClusterTracker } from '../../../cluster/cluster-tracker.js';

function tracker(): { t: ClusterTracker; raised: Alert[] } {
  const raised: Alert[] = [];
  const t = new ClusterTracker('c1', 'test', { connectstring: 'a:1186', mode: 'live', historySeconds: 600, memoryAlertHoldMs: 5000 }, { changed: () => undefined, events: () => undefined, alert: (a) => raised.push(a), history: () => undefined });
  t.apply({ kind: 'ndbinfo-link', t: 0, state: { kind: 'up', at: 0, sqlNode: 'mysql://root@127.0.0.1:3306', serverVersion: '8.4.0', tls: false, tables: [], missing: [], failovers: 0, failedOverFrom: null } });
  return { t, raised };
}

const GiB = 1024 ** 3;
/** Node 2's four redo parts, part 3 filled to `fill`, the others 10 %. */
function logspaces(t: number, fill: number) {
  const rows: LogRow[] = [0, 1, 2, 3].map((part) => ({ nodeId: 2, logType: 'REDO', logId: 0, logPart: part, total: GiB, used: Math.round(GiB * (part === 3 ? fill : 0.1)) }));
  return { kind: 'ndbinfo' as const, t, sample: { reading: 'logspaces' as const, sqlNode: 'x', at: t, durationMs: 1, rows } };
}

function transporters(t: number, state: Record<number, { overloaded?: boolean; slowdown?: boolean }>) {
  const rows: TransporterRow[] = [3, 4, 50].map((remote) => ({
    nodeId: 2, remoteNodeId: remote, status: 'CONNECTED', remoteAddress: '127.0.0.1', bytesSent: 0, bytesReceived: 0, connectCount: 1,
    overloaded: state[remote]?.overloaded ? 1 : 0, overloadCount: 0, slowdown: state[remote]?.slowdown ? 1 : 0, slowdownCount: 0,
    perSec: { bytesSent: null, bytesReceived: null, overloadCount: null, slowdownCount: null },
  }));
  return { kind: 'ndbinfo' as const, t, sample: { reading: 'transporters' as const, sqlNode: 'x', at: t, durationMs: 1, rows } };
}

test('the fullest redo part decides: 80 % warns, 90 % is critical, and the alert is over only after a hold below the mark', () => {
  const { t, raised } = tracker();
  t.apply(logspaces(1000, 0.5));
  assert.equal(raised.length, 0);
  assert.equal(t.snapshot().ndbinfoNodes?.[0]?.redo?.percent, 50, 'the worst part, not the mean of the parts (20 %)');
  t.apply(logspaces(2000, 0.83));
  assert.deepEqual(raised.map((a) => [a.kind, a.severity, a.nodeId]), [['log-fill-high', 'warning', 2]]);
  assert.equal(raised[0]?.message, 'Node 2: redo log 83 % full (≥ 80 %); its fullest part is REDO log 0 part 3 of 4');
  t.apply(logspaces(3000, 0.95));
  assert.deepEqual(raised.map((a) => a.kind), ['log-fill-high', 'log-fill-critical']);
  t.apply(logspaces(4000, 0.2));
  t.apply(logspaces(6000, 0.2));
  assert.ok(t.snapshot().alerts.some((a) => a.kind === 'log-fill-critical' && a.resolvedAt === null), 'held for the hold time');
  t.apply(logspaces(10_000, 0.2));
  assert.ok(t.snapshot().alerts.every((a) => a.resolvedAt !== null), 'over after the hold');
});

test('transporters: one alert per data node naming the links overloaded and slowed down, revised as they change, over when all are clear', () => {
  const { t, raised } = tracker();
  t.apply(transporters(1000, {}));
  assert.equal(raised.length, 0);
  t.apply(transporters(2000, { 3: { overloaded: true, slowdown: true }, 50: { slowdown: true } }));
  assert.deepEqual(raised.map((a) => [a.kind, a.nodeId, a.message]), [['transporter-overload', 2, 'Node 2: send buffers full, transporters overloaded to node 3, slowed down to node 50']]);
  t.apply(transporters(3000, { 3: { overloaded: true }, 4: { overloaded: true } }));
  assert.equal(raised.length, 1, 'the same condition: revised, not raised again');
  assert.equal(t.snapshot().alerts[0]?.message, 'Node 2: send buffers full, transporters overloaded to nodes 3, 4');
  t.apply(transporters(4000, {}));
  assert.equal(t.snapshot().alerts[0]?.resolvedAt, 4000);
});

test('a redo alert whose fill fell says its peak and the fill now, in the alert and its history row, and is over below the mark after the hold', () => {
  const { t } = tracker();
  t.apply(logspaces(1000, 0.5));
  t.apply(logspaces(2000, 0.95));
  const critical = () => t.snapshot().alerts.find((a) => a.kind === 'log-fill-critical');
  assert.equal(critical()?.message, 'Node 2: redo log 95 % full (≥ 90 %); its fullest part is REDO log 0 part 3 of 4');
  // Part 3 falls to 2 %: the fullest part is now one of the others, at 10 %.
  t.apply(logspaces(3000, 0.02));
  const held = critical();
  assert.equal(held?.resolvedAt, null, 'held by the hysteresis');
  assert.equal(held?.message, 'Node 2: redo log peaked at 95 % full, now 10 % (alert at 90 %); its fullest part is REDO log 0 part 0 of 4');
  assert.deepEqual(held?.level, { subject: 'redo log', unit: 'full', mark: 90, peak: 95, now: 10 });
  const row = t.alertHistory().entries.find((e) => e.id === held?.id);
  assert.equal(row?.message, held?.message, 'the history says what the alert says');
  t.apply(logspaces(9000, 0.02));
  const over = critical();
  assert.equal(over?.resolvedAt, 9000, 'over once the fill stayed under the clear mark for the hold');
  assert.match(over?.message ?? '', /peaked at 95 % full, now 10 %/);
});

test('lead time: a steady climb warns before any mark with the time to full; a flat fill is "not filling" and raises nothing', () => {
  const { t, raised } = tracker();
  const redo = () => t.snapshot().ndbinfoNodes?.[0]?.redo;
  // 1 point every 5 s (12 points/min) from 30 %: full in minutes.
  for (let i = 0; i <= 6; i++) t.apply(logspaces(1000 + i * 5000, 0.3 + i * 0.01));
  const trend = redo()?.trend;
  assert.ok(trend && Math.abs(trend.perMin - 12) < 0.1, `12 points/min, got ${trend?.perMin}`);
  assert.ok(trend.fullInSec !== null && Math.abs(trend.fullInSec - 320) < 5, `64 points at 12/min: 320 s, got ${trend.fullInSec}`);
  const soon = raised.filter((a) => a.kind === 'fill-soon');
  assert.equal(soon.length, 1, 'one lead-time alert, before the fill reached 80 %');
  assert.ok(raised.every((a) => a.kind === 'fill-soon'), 'no level alert yet');
  assert.equal(t.snapshot().alerts.find((a) => a.kind === 'fill-soon')?.message, 'Node 2: redo log 36 % full, full in ~5 min at this rate (+12 points/min)');

  const flat = tracker();
  for (let i = 0; i <= 6; i++) flat.t.apply(logspaces(1000 + i * 5000, 0.6));
  assert.equal(flat.t.snapshot().ndbinfoNodes?.[0]?.redo?.trend?.fullInSec, null, 'not filling');
  assert.equal(flat.t.snapshot().ndbinfoNodes?.[0]?.redo?.trend?.perMin, 0);
  assert.equal(flat.raised.length, 0);
  // A slow climb (full in over 10 minutes) says so and raises nothing either.
  const slow = tracker();
  for (let i = 0; i <= 6; i++) slow.t.apply(logspaces(1000 + i * 5000, 0.6 + i * 0.001));
  assert.ok((slow.t.snapshot().ndbinfoNodes?.[0]?.redo?.trend?.fullInSec ?? 0) > 600);
  assert.equal(slow.raised.length, 0);
  // One step up, then flat (a load starting, a level settling): the line still points up, but nothing climbs.
  const step = tracker();
  for (const [i, fill] of [0.3, 0.4, 0.4, 0.4].entries()) step.t.apply(logspaces(1000 + i * 5000, fill));
  assert.ok((step.t.snapshot().ndbinfoNodes?.[0]?.redo?.trend?.fullInSec ?? Infinity) < 600, 'the line alone would say full within 10 min');
  assert.equal(step.raised.length, 0);
});

test('lead time: a fill that just fell is "not filling", though the minute\'s line still points up; the next climb has its time to full again', () => {
  const { t } = tracker();
  const redo = () => t.snapshot().ndbinfoNodes?.[0]?.redo;
  for (let i = 0; i <= 6; i++) t.apply(logspaces(1000 + i * 5000, 0.3 + i * 0.1));
  assert.ok((redo()?.trend?.fullInSec ?? Infinity) < 600);
  // A checkpoint freed half the log: 90 % → 46 %.
  t.apply(logspaces(36_000, 0.46));
  assert.ok((redo()?.trend?.perMin ?? 0) > 0, 'the line through the minute still climbs');
  assert.equal(redo()?.trend?.fullInSec, null, 'but the fill fell: not filling');
  t.apply(logspaces(41_000, 0.5));
  assert.ok(redo()?.trend?.fullInSec !== null, 'climbing again: a time to full');
});

test('lead time: the warning is over once the fill stops climbing, after the hold', () => {
  const { t } = tracker();
  for (let i = 0; i <= 6; i++) t.apply(logspaces(1000 + i * 5000, 0.3 + i * 0.01));
  const soon = () => t.snapshot().alerts.find((a) => a.kind === 'fill-soon');
  assert.equal(soon()?.resolvedAt, null);
  // Checkpoints freed the log: falling, then flat.
  for (let i = 1; i <= 20; i++) t.apply(logspaces(31_000 + i * 5000, 0.1));
  assert.ok(soon()?.resolvedAt !== null, 'over');
  assert.match(soon()?.message ?? '', /^Node 2: redo log 10 % full, not filling$/);
});
