import { appVersion } from '../app-version.js';
import { Engine } from '../engine.js';
import type { EngineHost } from '../engine-host.js';
import { isInputLine, type RecordingLine } from './recording-format.js';
import { readRecording, type Recording, type RecordingProblem } from './recording-reader.js';
import { DEFAULT_SETTINGS, SettingsStore } from '../settings-store.js';
import { reportsOfRecording } from '../runs/recording-runs.js';
import { sleepUnlessAborted } from '../../../native-mgm/index.js';

export interface ReplayOptions {
  file: string;
  /** Already read (or received as text): played instead of reading `file`, which then only names it. */
  recording?: Recording;
  /** Recorded milliseconds per real millisecond; Infinity plays it all at once. Default 1 (as it happened). */
  speed?: number;
  historySeconds?: number;
}

export interface ReplayReport {
  inputs: number;
  /** Lines that could not be read (a torn last line after a crash, typically); everything else was played. */
  problems: RecordingProblem[];
}

export interface ReplayHost extends EngineHost {
  /** Resolves when the whole recording has been played (or the engine was closed). */
  readonly finished: Promise<ReplayReport>;
}

/** Yield to the event loop this often when playing at full speed, so requests are answered meanwhile. */
const BATCH = 2000;

function problemText(problems: RecordingProblem[]): string | null {
  const first = problems[0];
  if (!first) return null;
  return `recording: ${problems.length} unreadable line${problems.length > 1 ? 's' : ''} skipped (line ${first.line}: ${first.error})`;
}

/**
 * Plays a recording back through the same tracker code the live engine uses, and serves the same handlers, in
 * mode `replay`: actions are refused and no cluster can be added.
 */
export async function createReplayEngine(options: ReplayOptions): Promise<ReplayHost & Engine> {
  const recording = options.recording ?? (await readRecording(options.file));
  const speed = options.speed ?? 1;
  const settings = new SettingsStore(DEFAULT_SETTINGS, undefined, options.historySeconds !== undefined ? { historySeconds: options.historySeconds } : {});
  const abort = new AbortController();
  const engine = new Engine({ host: 'replay', version: appVersion(), actionsEnabled: false, settings, recorder: null, recordingRuns: (r, source) => reportsOfRecording(r, source, createReplayEngine), onClose: async () => abort.abort() });

  const play = async (lines: RecordingLine[]): Promise<ReplayReport> => {
    let inputs = 0;
    let previousT: number | null = null;
    for (const [i, line] of lines.entries()) {
      if (abort.signal.aborted) break;
      const wait = previousT === null || !Number.isFinite(speed) ? 0 : (line.t - previousT) / speed;
      previousT = line.t;
      if (wait > 0) await sleepUnlessAborted(wait, abort.signal);
      else if (i % BATCH === BATCH - 1) await sleepUnlessAborted(0, abort.signal);
      if (line.kind === 'cluster') engine.addCluster(line.name, line.connectstring, 'replay', line.c, line.t, line.collapse, line.rateInstances ?? 'arrivals');
      else if (isInputLine(line)) {
        engine.feed(line.c, line);
        inputs += 1;
      }
    }
    const note = problemText(recording.problems);
    for (const e of engine.entries()) {
      if (!note) break;
      const c = e.tracker.snapshot().connection;
      engine.feed(e.id, { kind: 'connection', t: e.tracker.time, connection: { ...c, lastError: note } });
    }
    return { inputs, problems: recording.problems };
  };

  return Object.assign(engine, { finished: play(recording.lines) });
}
