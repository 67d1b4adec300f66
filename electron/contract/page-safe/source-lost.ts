import type { ConnectionView } from '../schemas/snapshot.js';

/** Import-safe for the page: no zod here (the connection's type only). */
const MGM_LOST_WHY: Partial<Record<ConnectionView['status'], string>> = {
  reconnecting: 'ndbtop lost the management server',
  offline: 'ndbtop lost the management server',
  stale: 'the management server stopped answering',
  refused: 'the management server refuses this session',
};

/**
 * Why the management server's figures (node states, rates, memory) are not current, null while they are: the words
 * the page gives beside a last-seen figure or a disabled control, and an export beside its figures.
 */
export function mgmLostWhy(status: ConnectionView['status']): string | null {
  return MGM_LOST_WHY[status] ?? null;
}
