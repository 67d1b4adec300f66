import type { ConnectionView } from '../../contract.js';
import { tlsState, tlsTitle, type TlsState } from '../../view-model/tls.js';

const WORDS: Record<Exclude<TlsState, 'off'>, string> = { tls: 'TLS', clear: 'CLEAR TEXT', error: 'TLS ERROR' };
const TONE: Record<Exclude<TlsState, 'off'>, string> = { tls: 'ok', clear: 'warn', error: 'bad' };

/** Beside the connection chip: whether the management connection is TLS or clear text, and what went wrong. */
export function TlsBadge({ connection }: { connection: ConnectionView | null }) {
  const tls = connection?.tls;
  const state = tlsState(tls);
  // A lost link has no session whose security could be told: at 1280 px its words took the room the loss needs.
  const lost = connection?.status === 'reconnecting' || connection?.status === 'offline';
  if (!tls || state === 'off' || lost) return null;
  return (
    <span className={`tls-badge tone-${TONE[state]}`} data-testid="tls-state" data-state={state} title={tlsTitle(tls)}>
      {WORDS[state]}
    </span>
  );
}
