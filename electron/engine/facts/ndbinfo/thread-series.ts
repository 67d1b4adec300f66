import type { ThreadCpuRow } from '../../../../ndbinfo/client/rows.js';
import { CELL_NONE, CELL_STEPS_PER_PERCENT, cellPercent, columnSeconds, toCell } from '../../../contract/page-safe/thread-cells.js';
import type { ThreadPoint, ThreadPointQuery, ThreadRow, ThreadSeries as ThreadSeriesView, ThreadSeriesQuery } from '../../../contract/schemas/threads.js';
import { busyShare } from './figures.js';

/**
 * What is kept of a thread's second, one cell (byte) each. Busy is their sum and OS idle what user and system leave
 * of 100 % (NDB's THRMAN derives it so), so neither is stored; sleeping is, since whether spinning is counted in it
 * is not certain from the manual.
 */
const FIELDS = ['exec', 'send', 'spin', 'bufferFull', 'sleep', 'osUser', 'osSystem'] as const;
const WIDTH = FIELDS.length;
const [EXEC, SEND, SPIN, BUFFER_FULL, SLEEP, OS_USER, OS_SYSTEM] = [0, 1, 2, 3, 4, 5, 6] as const;

/** A reading's span beyond this (a stalled data node's) fills no more of the seconds before it. */
const MAX_COVER_MS = 2000;

/** The longest window the Threads view offers; a longer history setting keeps no more of this. */
export const THREAD_SERIES_MAX_SECONDS = 3600;

interface Row {
  readonly nodeId: number;
  readonly thrNo: number;
  name: string | null;
  /** Ring of seconds, WIDTH cells each, at the slot `second % capacity`. */
  cells: Uint8Array;
}

const rowKey = (nodeId: number, thrNo: number): number => nodeId * 65_536 + thrNo;

/**
 * One point per second per data-node thread for the last hour at most: ndbinfo's cpustat per thread (busy and both of
 * ndb_top's splits), in half-percent bytes in one ring per thread, so 144 data nodes × 20 threads × an hour is
 * 7 bytes × 10.4 M points (~73 MB) rather than objects per second. Every thread's ring shares one clock: a slot holds
 * the second `slotSecond[slot]`, and moving a slot on to a new second clears it for every thread, so a thread without
 * a reading that second reads as none. Pure: seconds come from the readings' own times.
 */
export class ThreadSeries {
  private capacity: number;
  private slotSecond: Float64Array;
  private newest = -Infinity;
  /** The first second ever recorded: a window reaching before it starts there, not at empty slots. */
  private oldest = Infinity;
  private readonly rows = new Map<number, Row>();

  constructor(seconds: number) {
    this.capacity = capacityFor(seconds);
    this.slotSecond = new Float64Array(this.capacity).fill(-1);
  }

  /** One cpustat reading, all its rows observed at `at`. */
  record(at: number, rows: readonly ThreadCpuRow[]): void {
    const second = Math.floor(at / 1000);
    if (second <= this.newest - this.capacity) return;
    if (second > this.newest) this.advance(second);
    this.oldest = Math.min(this.oldest, second);
    const oldest = this.newest - this.capacity + 1;
    for (const r of rows) {
      const row = this.row(r.nodeId, r.thrNo);
      if (r.threadName !== null) row.name = r.threadName;
      write(row.cells, (second % this.capacity) * WIDTH, r);
      // cpustat's figures cover the `elapsedTime` before the reading: a second in that span without a reading of its
      // own (readings a little over a second apart skip one now and then) is this one's, not a hole in the heatmap.
      const covered = Math.floor((at - Math.min(r.elapsedTime / 1000, MAX_COVER_MS)) / 1000);
      for (let s = Math.max(covered, oldest); s < second; s++) {
        const base = (s % this.capacity) * WIDTH;
        if (row.cells[base + EXEC] === CELL_NONE) write(row.cells, base, r);
      }
    }
  }

  /** Every thread with a reading in the window, by node and thread number; buckets keep their busiest second. */
  series(query: Omit<ThreadSeriesQuery, 'clusterId'>): ThreadSeriesView {
    const span = this.span(query.fromMs, query.toMs === undefined ? undefined : query.toMs + 1);
    if (!span) return { fromMs: query.fromMs ?? 0, stepMs: 1000, columns: 0, threads: [] };
    // The window asked for decides the buckets, not the part of it held, so the page can extend what it got.
    const asked = (query.toMs === undefined ? span.last : Math.floor(query.toMs / 1000)) - (query.fromMs === undefined ? span.first : Math.floor(query.fromMs / 1000)) + 1;
    const step = columnSeconds(asked, query.maxColumns ?? asked);
    const firstBucket = Math.floor(span.first / step);
    const columns = Math.floor(span.last / step) - firstBucket + 1;
    const threads: ThreadRow[] = [];
    const only = query.nodeIds ? new Set(query.nodeIds) : null;
    for (const row of this.sortedRows()) {
      if (only && !only.has(row.nodeId)) continue;
      const out = new Uint8Array(columns).fill(CELL_NONE);
      let any = false;
      for (let s = span.first; s <= span.last; s++) {
        const busy = busyCell(row.cells, (s % this.capacity) * WIDTH);
        if (busy === CELL_NONE) continue;
        const col = Math.floor(s / step) - firstBucket;
        const before = out[col]!;
        if (before === CELL_NONE || busy > before) out[col] = busy;
        any = true;
      }
      if (any) threads.push({ nodeId: row.nodeId, thrNo: row.thrNo, name: row.name, busy: Buffer.from(out).toString('base64') });
    }
    return { fromMs: firstBucket * step * 1000, stepMs: step * 1000, columns, threads };
  }

  /** The busiest second of one thread in [fromMs, toMs), with both splits; null without a reading there. */
  point(query: Omit<ThreadPointQuery, 'clusterId'>): ThreadPoint | null {
    const row = this.rows.get(rowKey(query.nodeId, query.thrNo));
    const span = this.span(query.fromMs, query.toMs);
    if (!row || !span) return null;
    let best = -1;
    let bestBusy = -1;
    for (let s = span.first; s <= span.last; s++) {
      const busy = busyCell(row.cells, (s % this.capacity) * WIDTH);
      if (busy !== CELL_NONE && busy > bestBusy) [best, bestBusy] = [s, busy];
    }
    if (best < 0) return null;
    const base = (best % this.capacity) * WIDTH;
    const pct = (field: number): number => cellPercent(row.cells[base + field]!) ?? 0;
    const osUser = pct(OS_USER);
    const osSystem = pct(OS_SYSTEM);
    return {
      at: best * 1000,
      busy: bestBusy / CELL_STEPS_PER_PERCENT,
      exec: pct(EXEC),
      send: pct(SEND),
      spin: pct(SPIN),
      bufferFull: pct(BUFFER_FULL),
      sleep: pct(SLEEP),
      osUser,
      osSystem,
      osIdle: Math.max(0, 100 - osUser - osSystem),
    };
  }

  /** A data node left the cluster: its threads go. */
  forget(nodeId: number): void {
    for (const [key, row] of this.rows) if (row.nodeId === nodeId) this.rows.delete(key);
  }

  /** Keeps the newest `seconds` (at most an hour) of what is held. */
  resize(seconds: number): void {
    const capacity = capacityFor(seconds);
    if (capacity === this.capacity) return;
    const old = this.capacity;
    const slotSecond = new Float64Array(capacity).fill(-1);
    const kept = Number.isFinite(this.newest) ? { first: this.newest - Math.min(capacity, old) + 1, last: this.newest } : null;
    for (const row of this.rows.values()) {
      const cells = new Uint8Array(capacity * WIDTH).fill(CELL_NONE);
      if (kept) for (let s = kept.first; s <= kept.last; s++) cells.set(row.cells.subarray((s % old) * WIDTH, (s % old) * WIDTH + WIDTH), (s % capacity) * WIDTH);
      row.cells = cells;
    }
    if (kept) for (let s = this.newest - capacity + 1; s <= this.newest; s++) slotSecond[s % capacity] = s;
    this.capacity = capacity;
    this.slotSecond = slotSecond;
    // What a smaller ring let go of is not there when it grows again.
    if (kept) this.oldest = Math.max(this.oldest, kept.first);
  }

  /** Bytes held by the rings (what an hour of a large cluster costs). */
  bytes(): number {
    return this.rows.size * this.capacity * WIDTH + this.slotSecond.byteLength;
  }

  private row(nodeId: number, thrNo: number): Row {
    const key = rowKey(nodeId, thrNo);
    let row = this.rows.get(key);
    if (!row) {
      row = { nodeId, thrNo, name: null, cells: new Uint8Array(this.capacity * WIDTH).fill(CELL_NONE) };
      this.rows.set(key, row);
    }
    return row;
  }

  private sortedRows(): Row[] {
    return [...this.rows.values()].sort((a, b) => a.nodeId - b.nodeId || a.thrNo - b.thrNo);
  }

  /** Moves the clock on to `second`, clearing every slot it passes for every thread. */
  private advance(second: number): void {
    const from = Math.max(this.newest + 1, second - this.capacity + 1);
    for (let s = from; s <= second; s++) {
      const slot = s % this.capacity;
      this.slotSecond[slot] = s;
      for (const row of this.rows.values()) row.cells.fill(CELL_NONE, slot * WIDTH, slot * WIDTH + WIDTH);
    }
    this.newest = second;
  }

  /** The seconds held of [fromMs, toMs) (whole window when not given); null when none. */
  private span(fromMs: number | undefined, toMs: number | undefined): { first: number; last: number } | null {
    if (!Number.isFinite(this.newest)) return null;
    const first = Math.max(this.newest - this.capacity + 1, this.oldest, fromMs === undefined ? -Infinity : Math.floor(fromMs / 1000));
    const last = Math.min(this.newest, toMs === undefined ? Infinity : Math.ceil(toMs / 1000) - 1);
    return last >= first ? { first, last } : null;
  }
}

function write(c: Uint8Array, base: number, r: ThreadCpuRow): void {
  c[base + EXEC] = toCell(r.threadExec);
  c[base + SEND] = toCell(r.threadSend);
  c[base + SPIN] = toCell(r.threadSpinning);
  c[base + BUFFER_FULL] = toCell(r.threadBufferFull);
  c[base + SLEEP] = toCell(r.threadSleeping);
  c[base + OS_USER] = toCell(r.osUser);
  c[base + OS_SYSTEM] = toCell(r.osSystem);
}

function capacityFor(seconds: number): number {
  return Math.max(1, Math.min(THREAD_SERIES_MAX_SECONDS, Math.floor(seconds)));
}

/** Busy in cells from a second's stored split (none when the second has no reading). */
function busyCell(cells: Uint8Array, base: number): number {
  const exec = cells[base + EXEC]!;
  if (exec === CELL_NONE) return CELL_NONE;
  const pct = (cell: number): number => cell / CELL_STEPS_PER_PERCENT;
  return toCell(busyShare(pct(exec), pct(cells[base + SEND]!), pct(cells[base + SPIN]!), pct(cells[base + BUFFER_FULL]!)));
}
