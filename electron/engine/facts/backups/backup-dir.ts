/** A node as the configuration lists it (the native ClusterConfig's and the contract's ConfigNodeView both fit). */
interface ConfiguredNode {
  nodeId: number;
  type: string;
  params: Record<string, number | string | boolean | undefined>;
}

function text(v: unknown): string {
  return typeof v === 'string' ? v.trim() : '';
}

/**
 * Where each data node writes its backups, on its own host: `BACKUP/BACKUP-<id>/` under BackupDataDir, which
 * defaults to FileSystemPath, which defaults to DataDir (the configuration's parameters of those names).
 */
export function backupDirectories(nodes: readonly ConfiguredNode[]): Array<{ path: string; nodeIds: number[] }> {
  const byPath = new Map<string, number[]>();
  for (const n of nodes) {
    if (n.type !== 'NDB') continue;
    const base = text(n.params['BackupDataDir']) || text(n.params['FileSystemPath']) || text(n.params['DataDir']) || '.';
    const path = `${base.replace(/\/+$/, '')}/BACKUP`;
    byPath.set(path, [...(byPath.get(path) ?? []), n.nodeId]);
  }
  return [...byPath].map(([path, nodeIds]) => ({ path, nodeIds }));
}

/** The directories in words, for a confirmation: "/data/BACKUP/BACKUP-<id> on nodes 2, 3". */
export function backupDirectoryText(nodes: readonly ConfiguredNode[]): string | null {
  const dirs = backupDirectories(nodes);
  if (dirs.length === 0) return null;
  return dirs.map((d) => `${d.path}/BACKUP-<id> on ${d.nodeIds.length === 1 ? 'node' : 'nodes'} ${d.nodeIds.join(', ')}`).join('; ');
}
