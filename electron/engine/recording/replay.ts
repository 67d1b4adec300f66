import { appVersion } from '../core/app-version.js';
import { Engine } from '../engine.js';
import type { EngineHost } from '../core/engine-host.js';
import { isInputLine, type ClusterLine, type InputLine } from './recording-format.js';
import { indexRecording, offsetBefore } from './recording-index.js';
import { openRecording, type ReadProblems } from './recording-reader.js';
import { DEFAULT_SETTINGS, SettingsStore } from '../core/settings-store.js';
import { reportsOfRecording } from '../features/runs/recording-runs.js';
import type { ReplayOptions } from './replay-options.js';
import { sleepUnlessAborted } from '../../../native-mgm/index.js';

export type { ReplayOptions } from './replay-options.js';

/** `problems`: lines that could not be read (a torn last line after a crash, typically); the rest was played. */
export interface ReplayReport extends ReadProblems {
  inputs: number;
}

export interface ReplayHost extends EngineHost {
  /** Resolves when the whole recording has been played (or the engine was closed). */
  readonly finished: Promise<ReplayReport>;
}

/** Yield to the event loop this often when playing at full speed, so requests are answered meanwhile. */
const BATCH = 2000;

function problemText({ problems, unreadable }: ReadProblems): string | null {
  const first = problems[0];
  if (!first) return null;
  return `recording: ${unreadable} unreadable line${unreadable > 1 ? 's' : ''} skipped (line ${first.line}: ${first.error})`;
}

/**
 * Plays a recording back through the same tracker code the live engine uses, and serves the same handlers, in
 * mode `replay`: actions are refused and no cluster can be added.
 */
export async function createReplayEngine(options: ReplayOptions): Promise<ReplayHost & Engine> {
  const from = options.from ?? -Infinity;
  const until = options.until ?? Infinity;
  const offset = Number.isFinite(from) ? offsetBefore(await indexRecording(options.file), from) : 0;
  const recording = await openRecording(options.file, { from: offset, inputsOnly: true, ...(options.onProgress ? { onProgress: options.onProgress } : {}) });
  const speed = options.speed ?? 1;
  const settings = new SettingsStore(DEFAULT_SETTINGS, undefined, options.historySeconds !== undefined ? { historySeconds: options.historySeconds } : {});
  const abort = new AbortController();
  const engine = new Engine({ host: 'replay', version: appVersion(), actionsEnabled: false, settings, recorder: null, ...(options.streamRuns ? { streamRuns: options.streamRuns } : {}), recordingRuns: (file, source, onProgress) => reportsOfRecording(file, source, createReplayEngine, onProgress), onClose: async () => abort.abort() });
  const addCluster = (line: ClusterLine): void =>
    void engine.addCluster(line.name, line.connectstring, 'replay', line.c, line.t, line.collapse, line.rateInstances ?? 'arrivals');
  let inputs = 0;
  const feed = (line: InputLine): void => {
    engine.feed(line.c, line);
    inputs += 1;
  };

  const play = async (): Promise<ReplayReport> => {
    let previousT: number | null = null;
    let i = 0;
    for await (const line of recording.lines) {
      if (abort.signal.aborted || line.t > until) break;
      // Seeking: what comes before `from` is played at once, as fast as it reads.
      const wait = previousT === null || !Number.isFinite(speed) || line.t <= from ? 0 : (line.t - previousT) / speed;
      previousT = line.t;
      if (wait > 0) await sleepUnlessAborted(wait, abort.signal);
      else if (++i % BATCH === 0) await sleepUnlessAborted(0, abort.signal);
      if (line.kind === 'cluster') addCluster(line);
      // A keyframe starts a cluster only when reading began at it; read from the start, the cluster is known.
      else if (line.kind === 'keyframe') {
        if (engine.entries().some((e) => e.id === line.c)) continue;
        addCluster(line.cluster);
        line.inputs.forEach(feed);
      } else if (isInputLine(line)) feed(line);
    }
    await recording.lines.return(undefined);
    const note = problemText(recording);
    for (const e of engine.entries()) {
      if (!note) break;
      const c = e.tracker.snapshot().connection;
      engine.feed(e.id, { kind: 'connection', t: e.tracker.time, connection: { ...c, lastError: note } });
    }
    return { inputs, problems: recording.problems, unreadable: recording.unreadable };
  };

  return Object.assign(engine, { finished: play() });
}
