import type { ConfigChange } from '../../../../contract/schemas/config.js';
import { nodes } from '../execution/event-text.js';

/**
 * Parameters whose change needs more than a node restart. The references ndbtop follows (the protocol and ndbinfo
 * pages, native-mgm/config/params.ts) give no restart types: these are the MySQL manual's ("Restart Type" of each
 * parameter: IN initial node restart, IS initial system restart), for the parameters that say so, not confirmed
 * against the references. Any other parameter is taken to need a normal node restart, which the rolling restart is.
 */
const RESTART_TYPE: Readonly<Record<string, 'initial node restart' | 'initial system restart'>> = {
  NoOfFragmentLogFiles: 'initial node restart',
  FragmentLogFileSize: 'initial node restart',
  NoOfFragmentLogParts: 'initial node restart',
  InitFragmentLogFiles: 'initial node restart',
  FileSystemPath: 'initial node restart',
  FileSystemPathDD: 'initial node restart',
  FileSystemPathDataFiles: 'initial node restart',
  FileSystemPathUndoFiles: 'initial node restart',
  BackupDataDir: 'initial node restart',
  DataDir: 'initial node restart',
  NoOfReplicas: 'initial system restart',
};

/**
 * What the last configuration change (`fromGeneration` → `toGeneration`) needs beyond this rolling restart, in words,
 * one line per parameter: the nodes it changed on and the restart it needs. ndbtop never starts an initial restart.
 */
export function initialRestartNotes(change: { fromGeneration: number; toGeneration: number; changes: readonly ConfigChange[] } | null, dataNodeIds: readonly number[]): string[] {
  if (!change) return [];
  const byParam = new Map<string, number[]>();
  for (const c of change.changes) {
    if (!RESTART_TYPE[c.param] || c.nodeId === null || !dataNodeIds.includes(c.nodeId) || c.before === null || c.after === null) continue;
    byParam.set(c.param, [...(byParam.get(c.param) ?? []), c.nodeId]);
  }
  return [...byParam].map(([param, ids]) => {
    const kind = RESTART_TYPE[param];
    const how =
      kind === 'initial system restart'
        ? 'the whole cluster stopped and started with --initial, its data restored from a backup'
        : `${nodes(ids)} restarted with --initial one node of a node group at a time (ndb_mgm -e "${ids[0]} restart -i"), instead of the normal restart this plan sends`;
    return `${param} changed on ${nodes(ids)} (configuration generation ${change.fromGeneration} → ${change.toGeneration}): it needs an ${kind}: ${how}. ndbtop does not start an initial restart; do it by hand`;
  });
}
