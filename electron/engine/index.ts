/** The engine's public surface for the Electron shell, serve mode, the CLI and the benchmark. */
export { createEngine, type CreateEngineOptions } from './create-engine.js';
export { DEFAULT_SETTINGS } from './core/settings-store.js';
export { createReplayEngine, type ReplayHost, type ReplayOptions, type ReplayReport } from './recording/replay.js';
export type { EngineHost } from './core/engine-host.js';
export { dispatchRequest } from './core/dispatch.js';
export { EngineRequestError } from './core/engine-error.js';
export { readRecording, RecordingError, type Recording, type RecordingProblem } from './recording/recording-reader.js';
export { applyDelta } from './core/push/snapshot-delta.js';
