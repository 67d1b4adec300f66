import { gzipSync } from 'node:zlib';

/**
 * One gzip member of a compressed recording. Every flush of the recorder is a whole member, so a kill can only
 * tear the last one, and any gzip reader (`zcat`, `zlib.createGunzip`) reads the file as the concatenation of
 * its members. The header carries an extra field (RFC 1952 FEXTRA, subfield `NR`) with the member's length, its
 * flags and the time of its first line: a reader hops from header to header to index a file of any size without
 * inflating it, and inflates from any member's offset to seek.
 *
 *   1f 8b 08 04 | mtime 0 (4) | xfl | os | XLEN=18 (2, LE) | 'N' 'R' | LEN=14 (2, LE)
 *   | member length (4, LE) | flags (1) | 0 (1) | first line time, ms (8, float64 LE) | deflate data | crc32 | isize
 */
export const MEMBER_HEADER_BYTES = 30;
const EXTRA_BYTES = 18;
const PAYLOAD_BYTES = 14;
const FEXTRA = 0x04;
const GZIP_HEADER_BYTES = 10;

/** Flags of a member. */
export const KEYFRAME = 0x01;
export const RUN_MARKS = 0x02;
/** A member of digest lines only (`features/runs/run-digest.ts`): what a report reads instead of every poll. */
export const DIGEST = 0x04;

export interface MemberInfo {
  length: number;
  flags: number;
  t: number;
}

export function isGzip(head: Uint8Array): boolean {
  return head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;
}

export function encodeMember(text: string, flags: number, t: number): Buffer {
  return memberOf(gzipSync(text), flags, t);
}

/** A member from a plain gzip member (zlib's, any level): its header gains our extra field. */
export function memberOf(plain: Buffer, flags: number, t: number): Buffer {
  // zlib writes the 10-byte header with no optional field; ours adds the extra field and keeps the rest.
  const body = plain.subarray(GZIP_HEADER_BYTES);
  const header = Buffer.alloc(MEMBER_HEADER_BYTES);
  plain.copy(header, 0, 0, GZIP_HEADER_BYTES);
  header[3] = FEXTRA;
  header.writeUInt16LE(EXTRA_BYTES, 10);
  header.write('NR', 12, 'latin1');
  header.writeUInt16LE(PAYLOAD_BYTES, 14);
  header.writeUInt32LE(MEMBER_HEADER_BYTES + body.length, 16);
  header[20] = flags;
  header.writeDoubleLE(t, 22);
  return Buffer.concat([header, body]);
}

/**
 * The header of the member at the start of `bytes`; null when it is not one of ours (another gzip writer's
 * member, a torn header, or not gzip at all), so the caller falls back to inflating.
 */
export function memberInfo(bytes: Uint8Array): MemberInfo | null {
  if (bytes.length < MEMBER_HEADER_BYTES || !isGzip(bytes) || bytes[2] !== 8 || bytes[3] !== FEXTRA) return null;
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, MEMBER_HEADER_BYTES);
  if (b.readUInt16LE(10) !== EXTRA_BYTES || b.toString('latin1', 12, 14) !== 'NR' || b.readUInt16LE(14) !== PAYLOAD_BYTES) return null;
  const length = b.readUInt32LE(16);
  if (length <= MEMBER_HEADER_BYTES) return null;
  return { length, flags: b[20] ?? 0, t: b.readDoubleLE(22) };
}
