/** The address line of `get status`: where the fast path finds its end, and each node's address kept from poll to poll. */
import { text, Word } from '../kv.js';
import { MAX_NODE_ID } from './status-fields.js';

const SPACE = 32;
const TAB = 9;
const CR = 13;
const LF = 10;

const isBlank = (c: number | undefined): boolean => c === SPACE || c === TAB;

/** The LF ending an address at `start` as the server prints it (not empty, nothing to trim, no CR), before `stop`; else -1. */
export function addressEnd(b: Buffer, start: number, stop: number): number {
  let lf = start;
  while (lf < stop && b[lf] !== LF) lf++;
  const last = b[lf - 1];
  return lf === stop || lf === start || isBlank(b[start]) || isBlank(last) || last === CR ? -1 : lf;
}

/**
 * Each node's address as last cut, by node id, when it is one the fast path would take as it is (not empty, no
 * blank or CR at its ends) and ASCII (one char per byte, so its string compares with the bytes in place): the same
 * bytes next poll reuse the string instead of cutting one. Once an address repeats, the fast path matches it with
 * its LF as a Word (four bytes at a time, no scan for the LF first); made only then, so addresses that change
 * every poll (two clusters in one process) cost no more than a cut.
 */
export const lastAddress: Array<{ text: string; line: Word | null } | undefined> = new Array(MAX_NODE_ID + 1).fill(undefined);
const MAX_KEPT_ADDRESS = 64;
/** A Word has at least four bytes: shorter addresses (with their LF) are compared by `sameText` only. */
const MIN_WORD_ADDRESS = 3;

export function addressText(id: number, b: Buffer, start: number, end: number): string {
  const kept = lastAddress[id];
  if (kept !== undefined && kept.text.length === end - start && sameText(kept.text, b, start)) {
    if (kept.line === null && kept.text.length >= MIN_WORD_ADDRESS) kept.line = new Word(`${kept.text}\n`);
    return kept.text;
  }
  const address = text(b, start, end);
  const final = address.charCodeAt(address.length - 1);
  const asPrinted = !isBlank(address.charCodeAt(0)) && !isBlank(final) && final !== CR;
  if (asPrinted && address.length <= MAX_KEPT_ADDRESS && isAscii(b, start, end)) lastAddress[id] = { text: address, line: null };
  return address;
}

/** Whether `b` holds the ASCII `text` at `start` (the caller checked it fits). */
function sameText(text: string, b: Buffer, start: number): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) !== b[start + i]) return false;
  return true;
}

function isAscii(b: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if ((b[i] as number) > 0x7f) return false;
  return true;
}
