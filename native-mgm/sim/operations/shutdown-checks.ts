import type { ClusterState } from '../state/cluster-state.js';
import type { DataNode } from '../state/node-state.js';
import { MGM_ERROR } from './mgm-errors.js';

/** Data nodes that are up enough to be stopped. */
export const isRunning = (n: DataNode): boolean => n.status === 'STARTED' || n.status === 'STARTING' || n.status === 'SHUTTING_DOWN';

/**
 * 5028 (spec §4.13, §8.4): stopping `targets` would leave a node group that still has a live node with none.
 */
export function wouldCrash(cluster: ClusterState, targets: readonly DataNode[]): boolean {
  const groups = new Set(targets.map((n) => n.nodeGroup));
  return [...groups].some((g) => {
    const members = cluster.nodeGroupMembers(g);
    return members.some(isRunning) && members.every((m) => targets.includes(m) || !isRunning(m));
  });
}

export interface NodeListSplit {
  data: DataNode[];
  mgm: number[];
  /** An id that is neither a data node nor a management node (error 5002). */
  invalid: boolean;
}

export function splitNodeList(cluster: ClusterState, ids: readonly number[]): NodeListSplit {
  const split: NodeListSplit = { data: [], mgm: [], invalid: false };
  for (const id of ids) {
    const node = cluster.data.get(id);
    if (node) split.data.push(node);
    else if (cluster.mgm.has(id)) split.mgm.push(id);
    else split.invalid = true;
  }
  return split;
}

/** Refusals common to stop and restart, in the server's order of checks. */
export function refusal(cluster: ClusterState, split: NodeListSplit, force: boolean, abort: boolean): number | null {
  if (split.invalid) return MGM_ERROR.wrongProcessType;
  if (cluster.singleUserApi !== null) return MGM_ERROR.singleUserMode;
  if (!force && !abort && [...cluster.data.values()].some((n) => n.status === 'STARTING')) return MGM_ERROR.startingOrStopping;
  if (split.data.some((n) => n.status === 'NO_CONTACT')) return MGM_ERROR.noContactWithProcess;
  return null;
}

/**
 * `node: "3 4"` → [3, 4] (spec §4.13: a space-separated list). Read as the server does (strtok at spaces, atoi
 * per item): `3,4` is node 3, and an item without leading digits is node 0, which no node has.
 */
export function parseNodeList(text: string): number[] {
  return text
    .split(' ')
    .filter((item) => item !== '')
    .map((item) => Number(/^[\t\n\v\f\r ]*\+?(\d+)/.exec(item)?.[1] ?? 0));
}
