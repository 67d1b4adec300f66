import type { Progress } from './recording-source.js';
import type { RunStreamOptions } from '../features/runs/run-stream.js';

/** How a recording is played (`createReplayEngine`); apart from replay itself, so what plays one need not import it. */
export interface ReplayOptions {
  file: string;
  /** Seek: start at this recorded time (ms), played from the keyframe before it; earlier lines are not read. */
  from?: number;
  /** Stop after this recorded time (ms); the rest of the file is not read. */
  until?: number;
  onProgress?: Progress;
  /** Recorded milliseconds per real millisecond; Infinity plays it all at once. Default 1 (as it happened). */
  speed?: number;
  historySeconds?: number;
  /** Summarise runs as they play rather than from the history (`reportsOfRecording`, whose history is short). */
  streamRuns?: RunStreamOptions;
}
