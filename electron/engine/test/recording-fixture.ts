import { randomBytes } from 'node:crypto';
import { appendFile } from 'node:fs/promises';
import { createEngine } from '../create-engine.js';
import { encodeMember } from '../recording/recording-member.js';
import { waitFor } from './helpers.js';

/**
 * A real recording of the simulator with one run named `A`, made bigger than a WebSocket message may be (over
 * 1 MiB) by a member of lines no replay plays: what an upload must stream rather than send in one message.
 */
export async function recordingWithRun(file: string): Promise<void> {
  const live = await createEngine({ host: 'serve', pollIntervalMs: 500, recordFile: file, simulator: { scenario: 'steady', dataNodes: 2, speed: 4 } });
  try {
    await waitFor('load', async () => ((await live.handlers.getSnapshot({})).rates?.transactions ?? 0) > 0, 30_000);
    const run = await live.handlers.startRun({ name: 'A' });
    await waitFor('two samples', async () => ((await live.handlers.getRunReports({ runIds: [run.id], figure: 'transactions' })).runs[0]?.summary.transactions?.samples ?? 0) >= 2, 30_000);
    await live.handlers.stopRun({});
  } finally {
    await live.close();
  }
  // Random filler does not compress, so the file passes 1 MiB.
  const filler = Array.from({ length: 4000 }, (_, i) => JSON.stringify({ c: 'filler', kind: 'note', t: i, pad: randomBytes(300).toString('base64') })).join('\n');
  await appendFile(file, encodeMember(`${filler}\n`, 0, Date.now()));
}
