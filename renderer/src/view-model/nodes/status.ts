import type { NodeStatus } from '../../contract.js';

export type Tone = 'ok' | 'busy' | 'warn' | 'bad' | 'idle';

/** Colour follows the word, never replaces it: every tone is shown next to the status in words. */
export const STATUS_TONE: Record<NodeStatus, Tone> = {
  STARTED: 'ok',
  CONNECTED: 'ok',
  STARTING: 'busy',
  RESTARTING: 'busy',
  RESUME: 'busy',
  SHUTTING_DOWN: 'warn',
  'SINGLE USER MODE': 'warn',
  NOT_STARTED: 'bad',
  NO_CONTACT: 'bad',
  UNKNOWN: 'idle',
};

export const HEALTH_TONE = { OK: 'ok', DEGRADED: 'warn', OFFLINE: 'bad' } as const satisfies Record<string, Tone>;
