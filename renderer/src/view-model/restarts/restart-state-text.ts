import type { NodeView, RestartState } from '../../contract.js';

/**
 * A data node's restart state in words, as the engine joined its two sources: every panel says this one, so the
 * Restart phases table, the restart progress, the rolling-restart step and the node card never disagree.
 */
export function restartStateText(node: Pick<NodeView, 'status' | 'restartState'>): string {
  // Views recorded before the engine derived one say only the status.
  return node.restartState?.words ?? node.status.replace(/_/g, ' ').toLowerCase();
}

/** Which source said it, where both could have: "restart_info", or the management server's start phase. */
export function restartSourceText(state: RestartState): string {
  if (state.source === 'ndbinfo') return 'from ndbinfo restart_info';
  return state.startPhase !== null ? `from the management server (start phase ${state.startPhase} done)` : 'from the management server';
}

/** The restart progress panel's "Restarting" entries: each data node the round has down, in its restart state. */
export function restartingLines(inProgress: readonly number[], nodes: ReadonlyMap<number, NodeView>): Array<{ nodeId: number; words: string; phase: string | null; source: string | null }> {
  return inProgress.map((nodeId) => {
    const node = nodes.get(nodeId);
    const state = node?.restartState ?? null;
    return { nodeId, words: node ? restartStateText(node) : '?', phase: state?.phase ?? null, source: state && restartSourceText(state) };
  });
}
