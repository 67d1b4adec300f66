import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { CDPSession } from 'playwright-core';

/**
 * Writes a V8 heap snapshot of the page (the Chromium tab `cdp` drives) to `file`, the same format as
 * `writeHeapSnapshot` writes for this process, so `soak/heap-diff.ts` compares two of them. Returns `file`.
 */
export async function pageHeapSnapshot(cdp: CDPSession, file: string): Promise<string> {
  const out = createWriteStream(file);
  const onChunk = ({ chunk }: { chunk: string }): void => void out.write(chunk);
  cdp.on('HeapProfiler.addHeapSnapshotChunk', onChunk);
  try {
    await cdp.send('HeapProfiler.collectGarbage');
    await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  } finally {
    cdp.off('HeapProfiler.addHeapSnapshotChunk', onChunk);
    out.end();
    await once(out, 'finish');
  }
  return file;
}
