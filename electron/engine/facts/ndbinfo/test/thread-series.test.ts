import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ThreadCpuRow } from '../../../../../ndbinfo/client/rows.js';
import { CELL_NONE, cellPercent, decodeCells } from '../../../../contract/page-safe/thread-cells.js';
import { ThreadSeries } from '../thread-series.js';

const T0 = 1_700_000_000_000;

function row(nodeId: number, thrNo: number, busy: { exec: number; send?: number; spin?: number; bufferFull?: number; user?: number; system?: number }, name: string | null = 'ldm'): ThreadCpuRow {
  const send = busy.send ?? 0;
  const spin = busy.spin ?? 0;
  const bufferFull = busy.bufferFull ?? 0;
  return {
    nodeId,
    thrNo,
    threadName: name,
    osUser: busy.user ?? busy.exec,
    osSystem: busy.system ?? 0,
    osIdle: 100 - (busy.user ?? busy.exec) - (busy.system ?? 0),
    threadExec: busy.exec,
    threadSleeping: 100 - busy.exec - send - spin - bufferFull,
    threadSpinning: spin,
    threadSend: send,
    threadBufferFull: bufferFull,
    elapsedTime: 1_000_000,
  };
}

const percents = (base64: string): Array<number | null> => [...decodeCells(base64)].map(cellPercent);

test('one column per second per thread: busy is exec + send + spin + buffer full, a second without a reading is none', () => {
  const s = new ThreadSeries(3600);
  s.record(T0, [row(2, 0, { exec: 10, send: 5, spin: 2.5, bufferFull: 1 }, 'main'), row(2, 2, { exec: 90 }), row(3, 2, { exec: 40 })]);
  // Second 1 has no reading; the one at 3 s covers the second before it, which had none; node 3 is missing (down).
  s.record(T0 + 3000, [row(2, 0, { exec: 20 }, 'main'), row(2, 2, { exec: 99.6 })]);
  const out = s.series({});
  assert.equal(out.fromMs, T0);
  assert.equal(out.stepMs, 1000);
  assert.equal(out.columns, 4);
  assert.deepEqual(
    out.threads.map((t) => [t.nodeId, t.thrNo, t.name, percents(t.busy)]),
    [
      [2, 0, 'main', [18.5, null, 20, 20]],
      [2, 2, 'ldm', [90, null, 99.5, 99.5]],
      [3, 2, 'ldm', [40, null, null, null]],
    ],
  );
  assert.deepEqual(
    s.series({ nodeIds: [3] }).threads.map((t) => [t.nodeId, t.thrNo]),
    [[3, 2]],
    'only the nodes asked for',
  );
  // A window that leaves node 3's only reading out leaves node 3 out.
  assert.deepEqual(
    s.series({ fromMs: T0 + 1000 }).threads.map((t) => t.nodeId),
    [2, 2],
  );
});

test('the point of a cell is its busiest second with both of ndb_top splits; OS idle is what user and system leave', () => {
  const s = new ThreadSeries(60);
  s.record(T0, [row(2, 2, { exec: 30, send: 10, user: 35, system: 5 })]);
  s.record(T0 + 1000, [row(2, 2, { exec: 70, send: 10, spin: 5, bufferFull: 3, user: 80, system: 8 })]);
  s.record(T0 + 2000, [row(2, 2, { exec: 50 })]);
  assert.deepEqual(s.point({ nodeId: 2, thrNo: 2, fromMs: T0, toMs: T0 + 3000 }), {
    at: T0 + 1000,
    busy: 88,
    exec: 70,
    send: 10,
    spin: 5,
    bufferFull: 3,
    sleep: 12,
    osUser: 80,
    osSystem: 8,
    osIdle: 12,
  });
  assert.equal(s.point({ nodeId: 2, thrNo: 2, fromMs: T0, toMs: T0 + 1000 })?.busy, 40);
  assert.equal(s.point({ nodeId: 2, thrNo: 9, fromMs: T0, toMs: T0 + 3000 }), null, 'no such thread');
  assert.equal(s.point({ nodeId: 2, thrNo: 2, fromMs: T0 + 5000, toMs: T0 + 9000 }), null, 'no reading there');
});

test('the ring keeps the newest seconds only; a reading older than that is ignored', () => {
  const s = new ThreadSeries(10);
  for (let i = 0; i < 25; i++) s.record(T0 + i * 1000, [row(2, 2, { exec: i })]);
  s.record(T0 + 3000, [row(2, 2, { exec: 99 })]);
  const out = s.series({});
  assert.equal(out.fromMs, T0 + 15_000);
  assert.deepEqual(percents(out.threads[0]!.busy), [15, 16, 17, 18, 19, 20, 21, 22, 23, 24]);
  // A jump past the whole ring clears it (but for the second the reading covers).
  s.record(T0 + 100_000, [row(2, 2, { exec: 7 })]);
  const after = s.series({});
  assert.deepEqual(percents(after.threads[0]!.busy), [...Array(8).fill(null), 7, 7]);
});

test('a reading fills the seconds of the span it covers that have none of their own, never one that has', () => {
  const s = new ThreadSeries(60);
  s.record(T0 + 950, [row(2, 2, { exec: 10 })]);
  // 1.07 s later: second 1 had no reading; this one covers 1.02–2.02 s.
  s.record(T0 + 2020, [row(2, 2, { exec: 30 })]);
  s.record(T0 + 3010, [row(2, 2, { exec: 50 })]);
  // A reading covering 1.5 s fills nothing it does not reach, and the span is capped.
  s.record(T0 + 9000, [{ ...row(2, 2, { exec: 70 }), elapsedTime: 60_000_000 }]);
  assert.deepEqual(percents(s.series({}).threads[0]!.busy), [10, 30, 30, 50, null, null, null, 70, 70, 70]);
});

test('more seconds than columns: aligned buckets keep their busiest second, so a one-second spike stays', () => {
  const s = new ThreadSeries(3600);
  const start = 1_700_000_040_000; // a multiple of 4 s
  for (let i = 0; i < 120; i++) s.record(start + i * 1000, [row(5, 1, { exec: i === 61 ? 97 : 10 }, 'tc')]);
  const out = s.series({ maxColumns: 31 });
  assert.equal(out.stepMs, 4000);
  assert.equal(out.fromMs % out.stepMs, 0);
  assert.ok(out.columns <= 31);
  const cells = percents(out.threads[0]!.busy);
  assert.equal(cells.length, out.columns);
  assert.equal(Math.max(...cells.map((c) => c ?? 0)), 97);
  assert.equal(cells.filter((c) => c === 97).length, 1);
  assert.ok(cells.every((c) => c === 10 || c === 97));
});

test('resize keeps the newest seconds; forget drops a node; an hour of 144 × 20 threads stays in bytes', () => {
  const s = new ThreadSeries(20);
  for (let i = 0; i < 20; i++) s.record(T0 + i * 1000, [row(2, 2, { exec: i }), row(3, 2, { exec: 50 })]);
  s.resize(5);
  assert.deepEqual(percents(s.series({}).threads[0]!.busy), [15, 16, 17, 18, 19]);
  s.resize(60);
  s.record(T0 + 20_000, [row(2, 2, { exec: 20 })]);
  assert.deepEqual(percents(s.series({}).threads[0]!.busy), [15, 16, 17, 18, 19, 20]);
  s.forget(3);
  assert.deepEqual(
    s.series({}).threads.map((t) => t.nodeId),
    [2],
  );

  const big = new ThreadSeries(24 * 3600);
  const rows: ThreadCpuRow[] = [];
  for (let n = 1; n <= 144; n++) for (let t = 0; t < 20; t++) rows.push(row(n, t, { exec: (n + t) % 100 }));
  big.record(T0, rows);
  assert.equal(big.bytes(), 144 * 20 * 3600 * 7 + 3600 * 8, 'an hour at most, 7 bytes a point');
  const out = big.series({});
  assert.equal(out.threads.length, 2880);
  assert.equal(decodeCells(out.threads[0]!.busy)[0], 2 * 1);
  assert.notEqual(decodeCells(out.threads[0]!.busy)[0], CELL_NONE);
});
