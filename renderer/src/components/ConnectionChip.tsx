import type { ConnectionView } from '../contract.js';

export type ConnectionState = 'connecting' | 'live' | 'reconnecting' | 'failed-over' | 'stale' | 'offline' | 'simulated' | 'replay';

const WORDS: Record<ConnectionState, string> = {
  connecting: 'CONNECTING',
  live: 'LIVE',
  reconnecting: 'RECONNECTING',
  'failed-over': 'FAILED OVER',
  // Connected, but the node data has stopped updating: never shown as LIVE.
  stale: 'STALE',
  offline: 'OFFLINE',
  simulated: 'SIMULATED',
  replay: 'REPLAY',
};
const TONE: Record<ConnectionState, string> = {
  connecting: 'busy',
  live: 'ok',
  reconnecting: 'warn',
  'failed-over': 'warn',
  stale: 'bad',
  offline: 'bad',
  simulated: 'sim',
  replay: 'sim',
};

/**
 * One word for the header. Trouble outranks the mode: a simulated cluster that lost its mgmd shows RECONNECTING,
 * and a healthy one shows SIMULATED (or REPLAY) so nobody mistakes it for production.
 */
export function connectionState(c: ConnectionView | null): ConnectionState {
  if (!c) return 'connecting';
  if (c.status !== 'live') return c.status;
  return c.mode === 'live' ? 'live' : c.mode;
}

export function ConnectionChip({ connection }: { connection: ConnectionView | null }) {
  const state = connectionState(connection);
  const title = connection?.lastError ? `last error: ${connection.lastError}` : (connection?.connectstring ?? '');
  return (
    <span className={`conn-chip tone-${TONE[state]}`} data-testid="connection-state" data-state={state} title={title}>
      {WORDS[state]}
    </span>
  );
}
