import type { RunReport } from '../../contract/runs.js';
import type { Recording } from '../recording/recording-reader.js';
import type { createReplayEngine } from '../recording/replay.js';

const MIN_HISTORY_S = 60;
const MAX_HISTORY_S = 7 * 24 * 3600;

/** Enough history for the whole recording, so a summary sees every second of every run in it. */
function historySecondsOf(recording: Recording): number {
  const first = recording.lines[0]?.t ?? 0;
  const last = recording.lines.at(-1)?.t ?? first;
  return Math.min(MAX_HISTORY_S, Math.max(MIN_HISTORY_S, Math.ceil((last - first) / 1000) + 10));
}

/**
 * The runs of a recording with their summaries: the recording is played at full speed through the same engine
 * as live, so a report's figures are the ones the live engine computed. `play` is `createReplayEngine`, passed in
 * because a replay engine itself answers `importRecording` with this (a replay that imported replay would be an
 * import circle).
 */
export async function reportsOfRecording(recording: Recording, source: string, play: typeof createReplayEngine): Promise<RunReport[]> {
  const engine = await play({ file: source, recording, speed: Infinity, historySeconds: historySecondsOf(recording) });
  try {
    await engine.finished;
    return engine.entries().flatMap((e) => e.tracker.runs.list().map((run) => ({ ...e.tracker.runReport(run), source })));
  } finally {
    await engine.close();
  }
}
