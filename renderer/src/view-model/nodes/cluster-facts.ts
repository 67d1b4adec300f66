import type { ClusterSummary } from '../../contract.js';

/**
 * "localhost:1186 · simulated · live" after a watched cluster's name, each fact once: a cluster named by its
 * connectstring, or live and connected live, read "localhost:41001 localhost:41001 · live · live".
 */
export function clusterFacts(c: Pick<ClusterSummary, 'name' | 'connectstring' | 'mode' | 'status'>): string {
  const facts = [c.connectstring, c.mode, c.status].filter((f, i, all) => f !== c.name && all.indexOf(f) === i);
  return facts.join(' · ');
}
