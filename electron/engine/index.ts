/** The engine's public surface for the Electron shell, serve mode, the CLI and the benchmark. */
export { createEngine, type CreateEngineOptions } from './create-engine.js';
export { DEFAULT_SETTINGS } from './settings-store.js';
export { createReplayEngine, type ReplayHost, type ReplayOptions, type ReplayReport } from './recording/replay.js';
export type { EngineHost } from './engine-host.js';
export { dispatchRequest } from './dispatch.js';
export { EngineRequestError } from './engine-error.js';
export { readRecording, RecordingError, type Recording, type RecordingProblem } from './recording/recording-reader.js';
export { applyDelta } from './push/snapshot-delta.js';
