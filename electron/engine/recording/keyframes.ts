import type { ClusterLine, InputLine, KeyframeLine, RecordingLine } from './recording-format.js';

/** Inputs that replace what came before of their kind: the newest one is the state. */
const STATE_KINDS = new Set<string>(['config', 'status', 'memory', 'connection', 'ndbinfo-link', 'ndbinfo-load', 'rolling-plan']);

interface ClusterState {
  cluster: ClusterLine;
  latest: Map<string, InputLine>;
  /** The running run's start and phase marks, in order; emptied by its stop. */
  run: InputLine[];
}

/**
 * What a fresh tracker must be fed to pick a cluster up mid-recording, kept per cluster from the lines written.
 * History (events, reports) is not state: a replay started at a keyframe shows it from there on.
 */
export class KeyframeState {
  private readonly clusters = new Map<string, ClusterState>();

  note(line: RecordingLine): void {
    if (line.kind === 'cluster') {
      this.clusters.set(line.c, { cluster: line, latest: new Map(), run: [] });
      return;
    }
    const state = this.clusters.get(line.c);
    if (!state) return;
    if (STATE_KINDS.has(line.kind)) state.latest.set(line.kind, line as InputLine);
    else if (line.kind === 'run') state.run = line.op === 'stop' ? [] : [...state.run, line];
  }

  keyframes(t: number): KeyframeLine[] {
    return [...this.clusters.values()].map(({ cluster, latest, run }) => ({
      c: cluster.c,
      kind: 'keyframe',
      t,
      cluster,
      inputs: [...latest.values(), ...run].sort((a, b) => a.t - b.t),
    }));
  }
}
