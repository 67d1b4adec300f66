import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CollapseDetector, DEFAULT_COLLAPSE } from '../collapse.js';

/** Feeds one sample a second of [transactions/s, operations in flight]; returns the times a collapse was reported. */
function feed(samples: ReadonlyArray<readonly [number, number]>): number[] {
  const d = new CollapseDetector(DEFAULT_COLLAPSE);
  return samples.flatMap(([v, ops], i) => (d.sample(i * 1000, v, { concurrentOps: ops, apiNodes: 3 }) ? [i * 1000] : []));
}

const held = (n: number, v: number, ops: number): Array<[number, number]> => Array.from({ length: n }, () => [v, ops]);

test('the next run ramping up after the load went away is no collapse: the benchmark scenario at 144 data nodes, speed 4', () => {
  // What the engine fed its detector (one sample a wall second) through a cycle's end and the next one's start:
  // ramp-down, idle, ramp-up. The gauge is back at its peak while the reported throughput, an average over the
  // report period, is still at 46 % (it raised "−54 %" at the sample marked below).
  const cycle: Array<[number, number]> = [
    [23198, 0], [53202, 294], [83738, 576], [113833, 576], [139327, 576], [149579, 576], [150252, 576], [150136, 576],
    [150019, 576], [149847, 576], [149990, 576], [149800, 576], [149758, 576], [150157, 576], [150048, 576], [149854, 576],
    [149922, 576], [149768, 576], [149870, 576], [144945, 576], [118442, 541], [77825, 71], [37436, 0], [6962, 0],
    [25, 0], [0, 0], [446, 0], [12221, 0], [39850, 83], /* raised here */ [69396, 536], [98684, 576], [128729, 576],
    [147744, 576], [150067, 576], [150207, 576],
  ];
  assert.deepEqual(feed(cycle), []);
});

test('back-to-back runs without marks: a stop and a start within the window is no collapse', () => {
  // Load stops at once; the next run starts at once 3 s later. Each TC instance's first report after the start
  // carries the full gauge but only the part of its period since the start, so the gauge leads the throughput.
  const start = [[15_000, 300], [45_000, 500], [70_000, 550], [90_000, 580], [100_000, 600]] as Array<[number, number]>;
  assert.deepEqual(feed([...held(25, 100_000, 600), [40_000, 100], ...held(3, 0, 0), ...start, ...held(25, 100_000, 600)]), []);
});

test('a collapse once the load is back and steady again is still raised', () => {
  // Ramp-down, idle, the next run steady for a full stretch, then throughput falls while clients keep their
  // operations in flight.
  const samples = [...held(25, 100_000, 600), [40_000, 100], ...held(5, 0, 0), ...held(25, 100_000, 600), ...held(10, 20_000, 600)] as Array<[number, number]>;
  assert.deepEqual(feed(samples), [57_000]);
});
