import type { ConnectionView } from '../../contract.js';
import type { Transport } from '../../store/ui-slice.js';

export type ConnectionState = 'connecting' | 'live' | 'reconnecting' | 'failed-over' | 'stale' | 'offline' | 'refused' | 'not-ready' | 'simulated' | 'replay' | 'disconnected';

const WORDS: Record<ConnectionState, string> = {
  connecting: 'CONNECTING',
  live: 'LIVE',
  reconnecting: 'RECONNECTING',
  'failed-over': 'FAILED OVER',
  // Connected, but the node data has stopped updating: never shown as LIVE.
  stale: 'STALE',
  offline: 'OFFLINE',
  // Connected, but every command but the handshake refused (TLS required): never LIVE.
  refused: 'REFUSED',
  // Connected, and the server answers, but with its own words instead of the status (one starting): not a lost link.
  'not-ready': 'MGMD NOT READY',
  simulated: 'SIMULATED',
  replay: 'REPLAY',
  disconnected: 'DISCONNECTED — RECONNECTING',
};
const TONE: Record<ConnectionState, string> = {
  connecting: 'busy',
  live: 'ok',
  reconnecting: 'warn',
  'failed-over': 'warn',
  stale: 'bad',
  offline: 'bad',
  refused: 'bad',
  'not-ready': 'warn',
  simulated: 'sim',
  replay: 'sim',
  disconnected: 'bad',
};

/**
 * One word for the header. Trouble outranks the mode: a simulated cluster that lost its mgmd shows RECONNECTING,
 * and a healthy one shows SIMULATED (or REPLAY) so nobody mistakes it for production.
 */
export function connectionState(c: ConnectionView | null, transport: Transport = 'open'): ConnectionState {
  // Whatever the engine last said is old news once the page cannot hear it.
  if (transport === 'lost') return 'disconnected';
  if (!c) return 'connecting';
  if (c.status !== 'live') return c.status;
  return c.mode === 'live' ? 'live' : c.mode;
}

export function ConnectionChip({ connection, transport }: { connection: ConnectionView | null; transport: Transport }) {
  const state = connectionState(connection, transport);
  const title = state === 'disconnected' ? 'this page lost its connection to the ndbtop server; what it shows is not updated' : connection?.lastError ? `last error: ${connection.lastError}` : (connection?.connectstring ?? '');
  return (
    <span className={`conn-chip tone-${TONE[state]}`} data-testid="connection-state" data-state={state} title={title}>
      {WORDS[state]}
    </span>
  );
}
