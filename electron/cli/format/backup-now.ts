import type { MgmClient } from '../../../native-mgm/client/mgm-client.js';
import type { BackupStatus } from '../../contract/schemas/backups.js';
import { DATA_MEMORY_BLOCK } from '../../engine/cluster/memory.js';
import { BackupBook } from '../../engine/facts/backups/backup-book.js';

/** Between the two progress reports that give a rate. */
const RATE_GAP_MS = 1000;

/**
 * What the cluster says of its backup now, through the engine's own derivation: each data node's BackupStatus
 * (`dump events 62`, REPORT BackupStatus) twice a second apart for the rate, its DataMemory in use (`dump events
 * 50`) and the replicas (data nodes per node group, from `get status`) for the data to back up. A backup ndbtop did
 * not see start has no start time but when it was first asked about; the cluster keeps no list of past backups.
 */
export async function readBackupNow(client: MgmClient, signal: AbortSignal): Promise<BackupStatus> {
  await client.connect(signal);
  const first = await client.dumpEvents(62, undefined, { signal });
  if (first.length === 0) return { running: null, last: [] };
  const nodes = await client.getStatus(undefined, { signal });
  const memory = await client.dumpEvents(50, undefined, { signal });
  await new Promise((r) => setTimeout(r, RATE_GAP_MS));
  const second = await client.dumpEvents(62, undefined, { signal });
  const perGroup = new Map<number, number>();
  for (const n of nodes) if (n.type === 'NDB' && typeof n.nodeGroup === 'number') perGroup.set(n.nodeGroup, (perGroup.get(n.nodeGroup) ?? 0) + 1);
  const replicas = Math.max(0, ...perGroup.values());
  const used = new Map<number, number>();
  for (const e of memory) {
    const f = e.fields;
    if (f['block'] === DATA_MEMORY_BLOCK) used.set(e.sourceNodeId, (f['pages_used'] ?? 0) * (f['page_size_bytes'] ?? 0));
  }
  const book = new BackupBook();
  for (const e of [...first, ...second]) book.apply(e);
  return book.status(Date.now(), (id) => {
    const bytes = used.get(id);
    return bytes !== undefined && replicas > 0 ? bytes / replicas : null;
  });
}
