import { closeSync, fstatSync, openSync, readSync, writeSync } from 'node:fs';
import type { PushMessage } from '../../contract/schemas/channels.js';
import { KeyframeState } from './keyframes.js';
import { DIGEST, encodeMember, isGzip, KEYFRAME, RUN_MARKS } from './recording-member.js';
import { FLUSH_MS, KEYFRAME_MS, RECORDING_FORMAT, RECORDING_VERSION, type RecordingLine } from './recording-format.js';
import type { DigestLine } from '../features/runs/run-digest.js';

/** Each cluster's digest since the last taken (`final`: the recording closes). */
export type DigestSource = (t: number, final: boolean) => DigestLine[];

export class RecorderError extends Error {
  readonly code = 'BAD_RECORDING';
}

/** A file to append to must be empty or compressed: gzip members after plain text would make neither readable. */
function checkAppendable(fd: number, file: string): void {
  if (fstatSync(fd).size === 0) return;
  const head = Buffer.alloc(2);
  readSync(fd, head, 0, 2, 0);
  if (!isGzip(head)) throw new RecorderError(`${file} holds a plain (uncompressed) recording; record to a new file`);
}

/**
 * Appends recording lines to a file, compressed. Lines collect in memory and are written every FLUSH_MS as one
 * gzip member with one synchronous write: a process killed with -9 loses at most that much, and only a kill
 * inside the write itself can leave a torn member, which readers skip. Every KEYFRAME_MS the member starts with
 * keyframes (recording-format.ts), so readers can start there.
 */
export class Recorder {
  private readonly fd: number;
  private buffer: string[] = [];
  private flags = 0;
  private firstT: number | null = null;
  private lastKeyframe = -Infinity;
  private readonly state = new KeyframeState();
  private readonly timer: NodeJS.Timeout;
  private closed = false;
  private digests: DigestSource | null = null;

  constructor(
    readonly file: string,
    engineVersion: string,
    private readonly now: () => number = Date.now,
    /** How often a member opens with keyframes (tests shorten it, so a run can start well after one sooner). */
    private readonly keyframeMs = KEYFRAME_MS,
  ) {
    this.fd = openSync(file, 'a+');
    try {
      checkAppendable(this.fd, file);
    } catch (err) {
      closeSync(this.fd);
      throw err;
    }
    const createdAt = now();
    this.buffer.push(JSON.stringify({ format: RECORDING_FORMAT, version: RECORDING_VERSION, createdAt, engine: engineVersion }));
    this.firstT = createdAt;
    this.flush();
    this.timer = setInterval(() => this.flush(), FLUSH_MS);
    this.timer.unref();
  }

  write(line: RecordingLine): void {
    if (this.closed) return;
    if (this.buffer.length === 0) this.startMember(line.t);
    this.state.note(line);
    if (line.kind === 'run') this.flags |= RUN_MARKS;
    this.buffer.push(JSON.stringify(line));
  }

  /** Where digests come from (the engine's trackers): written in a member of their own before each keyframe. */
  digestFrom(source: DigestSource): void {
    this.digests = source;
  }

  /** The pushed snapshots and deltas, as outputs. */
  onPush(message: PushMessage): void {
    if (message.type === 'snapshot') this.write({ c: message.snapshot.clusterId, kind: 'snapshot', t: this.now(), version: message.version, snapshot: message.snapshot });
    else if (message.type === 'delta') this.write({ c: message.delta.clusterId, kind: 'delta', t: this.now(), delta: message.delta });
  }

  /** A member's first line; a keyframe member opens with the state of every cluster before it. */
  private startMember(t: number): void {
    this.firstT = t;
    if (t - this.lastKeyframe < this.keyframeMs) return;
    const keyframes = this.state.keyframes(t);
    if (keyframes.length === 0) return;
    this.lastKeyframe = t;
    this.writeDigests(t, false);
    this.flags |= KEYFRAME;
    for (const k of keyframes) this.buffer.push(JSON.stringify(k));
  }

  /** In a member of their own, so a report reads these members and no other. */
  private writeDigests(t: number, final: boolean): void {
    const lines = this.digests?.(t, final) ?? [];
    if (lines.length > 0) writeSync(this.fd, encodeMember(lines.map((l) => JSON.stringify(l)).join('\n') + '\n', DIGEST, t));
  }

  flush(): void {
    if (this.buffer.length === 0) return;
    const member = encodeMember(this.buffer.join('\n') + '\n', this.flags, this.firstT ?? this.now());
    this.buffer = [];
    this.flags = 0;
    this.firstT = null;
    writeSync(this.fd, member);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    this.flush();
    this.writeDigests(this.now(), true);
    closeSync(this.fd);
  }
}
