import type { Sample } from '../../../../ndbinfo/client/sample.js';
import { ThreadSeries } from '../../facts/ndbinfo/thread-series.js';
import type { TrackerInput } from '../tracker-input.js';
import type { Room } from './room.js';

/** Keeps every data node's threads second by second for the Threads view, from the recorded cpustat readings. */
export class ThreadSeriesRoom implements Room {
  readonly series: ThreadSeries;

  constructor(historySeconds: number) {
    this.series = new ThreadSeries(historySeconds);
  }

  input(input: Exclude<TrackerInput, { kind: 'event' }>): void {
    if (input.kind === 'ndbinfo' && input.sample.reading === 'cpu') this.series.record(input.sample.at, (input.sample as Sample<'cpu'>).rows);
  }

  forget(nodeId: number): void {
    this.series.forget(nodeId);
  }
}
