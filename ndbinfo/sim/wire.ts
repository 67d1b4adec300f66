import { createHash, timingSafeEqual } from 'node:crypto';
import type { Cell } from './rows/index.js';
import type { MysqlError } from './sql/mysql-error.js';
import type { ResultColumn } from './sql/result-columns.js';
import { TimeSlice } from './sql/time-slice.js';

/** The parts of mysql2's server-side connection the endpoint uses (mysql2's typings leave most of them out). */
export interface ServerConnection {
  sequenceId: number;
  stream: { remoteAddress?: string; readonly destroyed: boolean; cork(): void; uncork(): void; end(): void; destroy(): void };
  serverHandshake(args: unknown): void;
  writePacket(packet: RawPacket): void;
  writeColumns(columns: ResultColumn[]): void;
  writeTextRow(values: Cell[]): void;
  writeEof(warnings?: number, statusFlags?: number): void;
  writeOk(args?: { serverStatus?: number }): void;
  handlePacket(packet: { sequenceId: number } | null | undefined): void;
  on(event: string, listener: (...args: never[]) => void): unknown;
}

/** SERVER_STATUS_AUTOCOMMIT: every reply says the session is in autocommit mode, as a fresh MySQL session is. */
export const STATUS_AUTOCOMMIT = 2;

/**
 * A packet body for mysql2's `writePacket`, which writes the 4-byte header (length, sequence id) in place. Used for
 * the error packet: mysql2's own writes the SQLSTATE as "#_____".
 */
export class RawPacket {
  readonly buffer: Buffer;

  constructor(payload: Buffer) {
    this.buffer = Buffer.concat([Buffer.alloc(4), payload]);
  }

  length(): number {
    return this.buffer.length;
  }

  writeHeader(sequenceId: number): void {
    this.buffer.writeUIntLE(this.buffer.length - 4, 0, 3);
    this.buffer[3] = sequenceId & 0xff;
  }
}

/** ERR_Packet: 0xff, error code, '#', SQLSTATE, message. */
export function writeError(conn: ServerConnection, err: MysqlError): void {
  const head = Buffer.alloc(3);
  head[0] = 0xff;
  head.writeUInt16LE(err.code, 1);
  conn.writePacket(new RawPacket(Buffer.concat([head, Buffer.from(`#${err.sqlState}`, 'latin1'), Buffer.from(err.message, 'utf8')])));
}

/**
 * A result set, its rows written a time slice at a time; a connection that went away meanwhile gets no more. mysql2
 * writes each packet to the socket on its own (a system call per row): corked, a slice's rows leave in one write.
 */
export async function writeResultSet(conn: ServerConnection, columns: ResultColumn[], rows: Cell[][]): Promise<void> {
  const { stream } = conn;
  stream.cork();
  try {
    const slice = new TimeSlice(() => {
      stream.uncork();
      stream.cork();
    });
    conn.writeColumns(columns);
    for (const row of rows) {
      if (stream.destroyed) return;
      conn.writeTextRow(row.map((v) => (v === null ? null : String(v))));
      await slice.row();
    }
    conn.writeEof(0, STATUS_AUTOCOMMIT);
  } finally {
    stream.uncork();
  }
}

/**
 * A command starts a new sequence: the reply's first packet takes the command's sequence id plus one. mysql2's server
 * side keeps counting from its last reply instead, which the client reports as "got packets out of order" (and
 * mysql2 itself prints for the next command); so every incoming packet sets the count to its own id.
 */
export function followClientSequence(conn: ServerConnection): void {
  const handle = conn.handlePacket.bind(conn);
  conn.handlePacket = (packet) => {
    if (packet) conn.sequenceId = packet.sequenceId;
    handle(packet);
  };
}

const sha1 = (...parts: Buffer[]): Buffer => {
  const h = createHash('sha1');
  for (const p of parts) h.update(p);
  return h.digest();
};

/**
 * mysql_native_password: the client sends SHA1(password) XOR SHA1(scramble + SHA1(SHA1(password))); an empty
 * password sends nothing.
 */
export function nativePasswordMatches(password: string, scramble: Buffer, token: Buffer): boolean {
  if (password === '') return token.length === 0;
  if (token.length !== 20) return false;
  const stage1 = sha1(Buffer.from(password, 'utf8'));
  const expected = Buffer.alloc(20);
  const mix = sha1(scramble, sha1(stage1));
  for (let i = 0; i < 20; i++) expected[i] = stage1[i]! ^ mix[i]!;
  return timingSafeEqual(expected, token);
}
