import { makeEvent, split64, type SimEvent } from '../state/sim-event.js';
import type { RedoLog } from './redo-log.js';

const MiB = 1024 * 1024;

/**
 * RedoStatus (spec §6.6.2) for each log part of a node, as DBLQH reports them on DUMP 2399 (the reference lists the
 * fields only; units as the server's redo tests read them): head and tail as a file number and the MB within that
 * file, total and free in MB as 64-bit hi/lo words, the part's number of files and file size in MB. The head is how
 * far the part has written round its ring of files, the tail the oldest record a restart still needs.
 */
export function redoStatusEvents(nodeId: number, redo: RedoLog): SimEvent[] {
  const fileMb = Math.max(1, Math.round(redo.fileBytes / MiB));
  const totalMb = redo.files * fileMb;
  return Array.from({ length: redo.parts }, (_, part) => {
    // Head and tail never meet: a part is full one MB before it.
    const usedMb = Math.min(totalMb - 1, Math.floor(redo.partUsed(part) / MiB));
    const head = Math.floor((redo.bytesWritten * redo.partShare(part)) / MiB) % totalMb;
    const tail = (head - usedMb + totalMb) % totalMb;
    const total = split64(totalMb);
    const free = split64(totalMb - usedMb);
    return makeEvent('RedoStatus', nodeId, {
      log_part: part,
      head_file_no: Math.floor(head / fileMb),
      head_mbyte: head % fileMb,
      tail_file_no: Math.floor(tail / fileMb),
      tail_mbyte: tail % fileMb,
      total_hi: total.hi,
      total_lo: total.lo,
      free_hi: free.hi,
      free_lo: free.lo,
      no_logfiles: redo.files,
      logfilesize: fileMb,
    });
  });
}
