import { open } from 'node:fs/promises';
import { checkedDigest, type DigestLine } from '../features/runs/run-digest.js';
import { inflateMember, type RecordingIndex } from './recording-index.js';
import type { Progress } from './recording-source.js';

/**
 * The digest lines of a compressed recording, in file order, from its digest members alone (see
 * `recording-index.ts`), one member at a time: a night's digests are read, never held. Throws on a line that is
 * not a digest (`checkedDigest`).
 */
export async function* readDigests(file: string, index: RecordingIndex, onProgress?: Progress): AsyncGenerator<DigestLine> {
  const handle = await open(file, 'r');
  try {
    const total = index.digests.reduce((sum, d) => sum + d.length, 0);
    let done = 0;
    for (const d of index.digests) {
      const member = Buffer.alloc(d.length);
      await handle.read(member, 0, d.length, d.offset);
      for (const row of inflateMember(member).toString('utf8').split('\n')) {
        if (row.length === 0) continue;
        yield checkedDigest(JSON.parse(row));
      }
      done += d.length;
      onProgress?.(done, total);
    }
  } finally {
    await handle.close();
  }
}
