import { readSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { DIGEST, isGzip, KEYFRAME, MEMBER_HEADER_BYTES, memberInfo, RUN_MARKS } from './recording-member.js';
import type { InputLine } from './recording-format.js';
import { checkInflateRatio, INFLATE_FLOOR_BYTES, MAX_INFLATE_RATIO, type Progress } from './recording-source.js';

export interface Keyframe {
  t: number;
  offset: number;
}

/** A member of digest lines: where it is and how long. */
export interface DigestMember extends Keyframe {
  length: number;
}

/** A run as its marks in the file say: enough to pick the part of the file to play for it. */
export interface IndexedRun {
  c: string;
  runId: string;
  name: string;
  start: number;
  end: number | null;
}

export interface RecordingIndex {
  compressed: boolean;
  size: number;
  /** Members that open with keyframes, in file order; empty for a plain file (played from its start). */
  keyframes: Keyframe[];
  runs: IndexedRun[];
  /** Every run mark in file order, for a report that reads digests and plays no inputs (phases included). */
  marks: Array<Extract<InputLine, { kind: 'run' }>>;
  /** Members of digest lines, in file order; empty for files written before digests. */
  digests: DigestMember[];
  /** Recorded time of the first and (to within a flush) the last line; null when the file says nothing. */
  firstT: number | null;
  lastT: number | null;
  /** Where the members stop being ours (a torn last member, or another writer's): indexed up to there. */
  indexedBytes: number;
}

const PROGRESS_EVERY = 4 * 1024 * 1024;
const HOP_BATCH = 4096;

function noteRunMarks(text: string, runs: Map<string, IndexedRun>, marks: RecordingIndex['marks']): void {
  for (const row of text.split('\n')) {
    if (!row.includes('"kind":"run"')) continue;
    let line: InputLine;
    try {
      line = JSON.parse(row) as InputLine;
    } catch {
      continue;
    }
    if (line.kind !== 'run') continue;
    marks.push(line);
    if (line.op === 'start') runs.set(line.runId, { c: line.c, runId: line.runId, name: line.name, start: line.t, end: null });
    const run = runs.get(line.runId);
    if (run && line.op === 'stop') run.end = line.t;
  }
}

const TAIL_BYTES = 4 * 1024 * 1024;

/** A member inflated under the ratio rule (recording-source.ts): zlib stops at the limit rather than after it. */
export function inflateMember(member: Buffer): Buffer {
  const limit = Math.max(INFLATE_FLOOR_BYTES, MAX_INFLATE_RATIO * member.length);
  try {
    return gunzipSync(member, { maxOutputLength: limit });
  } catch (err) {
    if ((err as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE') checkInflateRatio(limit + 1, member.length);
    throw err;
  }
}

/** The time of a plain file's first and last lines, from its head and its tail: old files are indexed by no more. */
async function plainTimes(handle: FileHandle, size: number): Promise<Pick<RecordingIndex, 'firstT' | 'lastT'>> {
  const timeOf = (row: string | undefined): number | null => {
    try {
      const t: unknown = (JSON.parse(row ?? '') as { t?: unknown; createdAt?: unknown }).t;
      return typeof t === 'number' ? t : null;
    } catch {
      return null;
    }
  };
  const read = async (position: number): Promise<string[]> => {
    const buffer = Buffer.alloc(Math.min(TAIL_BYTES, size - position));
    await handle.read(buffer, 0, buffer.length, position);
    return buffer.toString('utf8').split('\n');
  };
  const head = await read(0);
  const tail = await read(Math.max(0, size - TAIL_BYTES));
  const firstT = head.slice(1).map(timeOf).find((t) => t !== null) ?? null;
  const lastT = tail.reverse().map(timeOf).find((t) => t !== null) ?? null;
  return { firstT, lastT };
}

/**
 * The index of a recording, built from its member headers alone (recording-member.ts): hopping from header to
 * header reads 30 bytes per member, so a file of any size is indexed in little time and memory; only members
 * flagged with run marks are inflated, to read those marks. Nothing is stored beside the file, so a copy, a
 * file killed mid-write and a file still being written are indexed alike.
 */
export async function indexRecording(file: string, onProgress?: Progress): Promise<RecordingIndex> {
  const handle = await open(file, 'r');
  try {
    const size = (await handle.stat()).size;
    const header = Buffer.alloc(MEMBER_HEADER_BYTES);
    const { bytesRead } = await handle.read(header, 0, MEMBER_HEADER_BYTES, 0);
    const index: RecordingIndex = { compressed: isGzip(header.subarray(0, bytesRead)), size, keyframes: [], runs: [], marks: [], digests: [], firstT: null, lastT: null, indexedBytes: 0 };
    if (!index.compressed) return { ...index, ...(await plainTimes(handle, size)), indexedBytes: size };
    const runs = new Map<string, IndexedRun>();
    let offset = 0;
    let reported = 0;
    for (let n = 1; offset + MEMBER_HEADER_BYTES <= size; n++) {
      // A night holds ~115,000 members: an awaited read each costs more than the read (seconds in all), so the
      // headers are read at once, letting the event loop in every HOP_BATCH of them.
      readSync(handle.fd, header, 0, MEMBER_HEADER_BYTES, offset);
      if (n % HOP_BATCH === 0) await new Promise((r) => setImmediate(r));
      const info = memberInfo(header);
      if (!info || offset + info.length > size) break;
      index.firstT ??= info.t;
      index.lastT = info.t;
      if (info.flags & KEYFRAME) index.keyframes.push({ t: info.t, offset });
      if (info.flags & DIGEST) index.digests.push({ t: info.t, offset, length: info.length });
      if (info.flags & RUN_MARKS) {
        const member = Buffer.alloc(info.length);
        await handle.read(member, 0, info.length, offset);
        noteRunMarks(inflateMember(member).toString('utf8'), runs, index.marks);
      }
      offset += info.length;
      if (onProgress && offset - reported >= PROGRESS_EVERY) onProgress((reported = offset), size);
    }
    index.indexedBytes = offset;
    index.runs = [...runs.values()];
    onProgress?.(size, size);
    return index;
  } finally {
    await handle.close();
  }
}

/** The offset to read from to have everything from `t` on: the last keyframe at or before it, else the start. */
export function offsetBefore(index: RecordingIndex, t: number): number {
  let found = 0;
  for (const k of index.keyframes) {
    if (k.t > t) break;
    found = k.offset;
  }
  return found;
}
