import type { EngineHandlers } from '../../contract/page-safe/api.js';
import type { PushMessage } from '../../contract/schemas/channels.js';
import type { Run } from '../../contract/schemas/runs.js';
import type { Progress } from '../recording/recording-source.js';

/**
 * What every transport (Electron IPC in main.ts, the WebSocket/HTTP server of serve mode, replay) holds: the
 * validated request handlers of the contract and the push stream. Transports never reach into the engine
 * beyond this.
 */
export interface EngineHost {
  readonly handlers: EngineHandlers;
  /** Pushes are coalesced by the engine (at most ~10/s, leading edge); each subscriber gets the same ones. */
  subscribe(listener: (message: PushMessage) => void): () => void;
  close(): Promise<void>;
  /** Runs imported from recordings for comparison; serve's upload endpoint adds to them (absent in fixtures). */
  readonly recordings?: { importFile(file: string, name: string, onProgress?: Progress): Promise<Run[]> };
}
