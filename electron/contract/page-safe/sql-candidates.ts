import type { NodeView } from '../schemas/node.js';

/** MySQL's default port (the SQL source's default too). */
const MYSQL_PORT = 3306;

/**
 * Candidate SQL nodes: the connected API nodes' addresses with MySQL's default port, so a user only adds
 * credentials. A guess: an API node may be any NDB API application rather than a mysqld, and a mysqld may listen
 * elsewhere. Derived from the node views the snapshot carries anyway, so the page derives it and nothing more is pushed.
 */
export function sqlCandidates(nodes: readonly Pick<NodeView, 'type' | 'address'>[]): string[] {
  const hosts = new Set<string>();
  for (const n of nodes) if (n.type === 'API' && n.address) hosts.add(n.address);
  return [...hosts].sort().map((h) => `mysql://${h.includes(':') ? `[${h}]` : h}:${MYSQL_PORT}`);
}
