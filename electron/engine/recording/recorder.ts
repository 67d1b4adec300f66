import { closeSync, openSync, writeSync } from 'node:fs';
import type { PushMessage } from '../../contract/channels.js';
import { FLUSH_MS, RECORDING_FORMAT, RECORDING_VERSION, type RecordingLine } from './recording-format.js';

/**
 * Appends recording lines to a file. Lines collect in memory and are written with one synchronous append every
 * FLUSH_MS: a process killed with -9 loses at most that much, and a line is never half-written by us between
 * two flushes (a torn last line can only come from a kill inside the write itself).
 */
export class Recorder {
  private readonly fd: number;
  private buffer: string[] = [];
  private readonly timer: NodeJS.Timeout;
  private closed = false;

  constructor(
    readonly file: string,
    engineVersion: string,
    private readonly now: () => number = Date.now,
  ) {
    this.fd = openSync(file, 'a');
    this.buffer.push(JSON.stringify({ format: RECORDING_FORMAT, version: RECORDING_VERSION, createdAt: now(), engine: engineVersion }));
    this.flush();
    this.timer = setInterval(() => this.flush(), FLUSH_MS);
    this.timer.unref();
  }

  write(line: RecordingLine): void {
    if (!this.closed) this.buffer.push(JSON.stringify(line));
  }

  /** The pushed snapshots and deltas, as outputs. */
  onPush(message: PushMessage): void {
    if (message.type === 'snapshot') this.write({ c: message.snapshot.clusterId, kind: 'snapshot', t: this.now(), version: message.version, snapshot: message.snapshot });
    else if (message.type === 'delta') this.write({ c: message.delta.clusterId, kind: 'delta', t: this.now(), delta: message.delta });
  }

  flush(): void {
    if (this.buffer.length === 0) return;
    const text = this.buffer.join('\n') + '\n';
    this.buffer = [];
    writeSync(this.fd, text);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    this.flush();
    closeSync(this.fd);
  }
}
