import type { RunReport } from '../../../contract/schemas/runs.js';
import { indexRecording, offsetBefore, type IndexedRun, type RecordingIndex } from '../../recording/recording-index.js';
import type { ReadProblems } from '../../recording/recording-reader.js';
import type { Progress } from '../../recording/recording-source.js';
import type { ReplayOptions } from '../../recording/replay-options.js';
import type { ClusterTracker } from '../../cluster/cluster-tracker.js';
import type { RunPicks } from './run-stream.js';
import { digestKey, digestReports } from './digest-report.js';

const MIN_HISTORY_S = 60;
/**
 * The replay's history holds no more than this, whatever the run's length: runs are summarised as they play
 * (`run-stream.ts`), and what still reads the history, a collapse alert listing the data nodes' figures, looks back
 * over its window only (10 s by default).
 */
export const REPORT_HISTORY_S = 600;
/**
 * A run is played from a keyframe at least this long before its start: rates are the mean of the latest 5 s
 * reports, so by the run's start they are what they were live.
 */
export const LEAD_MS = 30_000;

interface Span {
  from?: number;
  until?: number;
  runId?: string;
  /** The part of the file it reads, for the progress of the whole. */
  bytes: [number, number];
}

/** The span's length, within [MIN_HISTORY_S, REPORT_HISTORY_S]: a short span needs no more. */
function historySeconds(first: number | null, last: number | null): number {
  const span = first === null || last === null ? 0 : (last - first) / 1000;
  return Math.min(REPORT_HISTORY_S, Math.max(MIN_HISTORY_S, Math.ceil(span) + 10));
}

/**
 * One span per run where the file has keyframes; else the whole file once (older, plain recordings). `done`: runs
 * already reported from the file's digests, left out (a `report` entry in their place keeps the order).
 */
function spansOf(index: RecordingIndex, leadMs: number, done: ReadonlyMap<string, RunReport>): Array<Span | RunReport> {
  if (index.keyframes.length === 0 || index.runs.length === 0) return [{ bytes: [0, index.size] }];
  return index.runs.map((run: IndexedRun): Span | RunReport => {
    const reported = done.get(digestKey(run));
    if (reported) return reported;
    const from = run.start - leadMs;
    const next = run.end === null ? undefined : index.keyframes.find((k) => k.t > (run.end as number));
    return { from, ...(run.end === null ? {} : { until: run.end }), runId: run.runId, bytes: [offsetBefore(index, from), next?.offset ?? index.size] };
  });
}

export interface RecordingRuns extends ReadProblems {
  reports: RunReport[];
}

/**
 * Plays a recording through an engine: `createReplayEngine`, passed in because a replay engine itself imports
 * recordings with this (a replay that imported replay would be an import circle).
 */
export type PlayRecording = (options: ReplayOptions) => Promise<{
  readonly finished: Promise<ReadProblems>;
  entries(): ReadonlyArray<{ readonly tracker: ClusterTracker }>;
  close(): Promise<void>;
}>;

/** One play of a span: its runs' reports (one run's, given `runId`), and what a second play must pick. */
async function summarise(play: PlayRecording, options: ReplayOptions, source: string, runId: string | undefined): Promise<RecordingRuns & { picks: RunPicks }> {
  const engine = await play(options);
  try {
    const { problems, unreadable } = await engine.finished;
    const picks = new Map<string, Set<number>>();
    const reports: RunReport[] = [];
    for (const e of engine.entries()) {
      const runs = e.tracker.runs.list().filter((r) => runId === undefined || r.id === runId);
      reports.push(...runs.map((run) => ({ ...e.tracker.runReport(run), source })));
      for (const [key, times] of e.tracker.runStream?.unresolved(runs) ?? []) picks.set(key, times);
    }
    return { reports, problems, unreadable, picks };
  } finally {
    await engine.close();
  }
}

/** The runs the file's digests tell (none for a file written before them, or digests that do not read). */
async function digestedRuns(file: string, index: RecordingIndex, source: string, progress: Progress | undefined): Promise<Map<string, RunReport>> {
  if (index.digests.length === 0 || index.runs.length === 0) return new Map();
  try {
    return await digestReports(file, index, source, progress);
  } catch {
    // A digest that does not read (cut, or not ours): its runs are played, as an older file's are.
    return new Map();
  }
}

/**
 * The runs of a recording with their summaries: the recording is played at full speed through the same engine
 * as live, so a report's figures are the ones the live engine computed. A compressed recording's index says
 * where its runs are, and each run is played from the keyframe before it to its stop, so a long file costs the
 * time of its runs, not of its length. Runs are summarised as they play, over a short history: memory is the
 * cluster's series of each run (which the report carries) and no node's, whatever the file's size; a run or phase
 * that never held steady, whose verdict reads its seconds near its peak, is played a second time to pick those
 * when there were too many to hold (`NEAR_PEAK_HELD`).
 */
export async function reportsOfRecording(file: string, source: string, play: PlayRecording, progress?: Progress, leadMs = LEAD_MS, useDigests = true): Promise<RecordingRuns> {
  // A span's reader may still report a read-ahead chunk after its replay closed: nothing is reported once done.
  let over = false;
  const onProgress: Progress | undefined = progress && ((done, total) => !over && progress(done, total));
  const index = await indexRecording(file);
  const digested = useDigests ? await digestedRuns(file, index, source, onProgress) : new Map<string, RunReport>();
  const parts = spansOf(index, leadMs, digested);
  const spans = parts.filter((p): p is Span => 'bytes' in p);
  const total = spans.reduce((sum, s) => sum + s.bytes[1] - s.bytes[0], 0);
  const out: RecordingRuns = { reports: [], problems: [], unreadable: 0 };
  let base = 0;
  for (const span of parts) {
    if (!('bytes' in span)) {
      out.reports.push(span);
      continue;
    }
    const options: ReplayOptions = {
      file,
      speed: Infinity,
      historySeconds: historySeconds(span.from ?? index.firstT, span.until ?? index.lastT),
      ...(span.from === undefined ? {} : { from: span.from }),
      ...(span.until === undefined ? {} : { until: span.until }),
    };
    const first = await summarise(play, { ...options, streamRuns: {}, ...(onProgress ? { onProgress: (done: number) => onProgress(Math.min(total, base + done - span.bytes[0]), total) } : {}) }, source, span.runId);
    // A stretch that never held steady for long: its ticks near the peak are known only now; played again, they are picked.
    const played = first.picks.size === 0 ? first : await summarise(play, { ...options, streamRuns: { picks: first.picks } }, source, span.runId);
    out.problems.push(...played.problems);
    out.unreadable += played.unreadable;
    out.reports.push(...played.reports);
    base += span.bytes[1] - span.bytes[0];
  }
  // Runs all read from digests: their reading reported its own end.
  if (spans.length > 0) onProgress?.(total, total);
  over = true;
  return out;
}
