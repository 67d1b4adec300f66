import type { ClusterSnapshot, ConnectionView, SnapshotDelta } from '../../contract/schemas/snapshot.js';
import type { CollapseConfig } from '../features/runs/collapse.js';
import type { TrackerInput } from '../cluster/tracker-input.js';
import type { RateInstances } from '../facts/rates/rates.js';

/**
 * Recording file format (`--record FILE`): JSON lines, UTF-8, one object per line, appended as it happens, and
 * written compressed: the file is a series of gzip members (recording-member.ts), one per flush, so `zcat FILE`
 * gives the lines and a kill loses at most the last flush. Readers tell compressed from plain by the gzip magic
 * bytes, never by the name, and read plain files (every recording made before compression) the same way.
 *
 *   line 1   {"format":"ndbtop-recording","version":1,"createdAt":<ms>,"engine":"<app version>"}
 *   cluster  {"c":"<clusterId>","kind":"cluster","t":<ms>,"name":"…","connectstring":"…","mode":"live"|"simulated","collapse"?:{"dropShare","windowMs"},
 *             "rateInstances"?:"configuration"|"arrivals"}   (absent: written before December 2026, "arrivals")
 *   input    {"c":"<clusterId>", …one TrackerInput: kind status|event|memory|connection|requested|ack|tick|config|run|ndbinfo|ndbinfo-link|ndbinfo-load, t, …}
 *            ndbinfo: {"sample":{"reading","sqlNode","at","durationMs","rows"}} (an SQL source's reading, rows as the source typed
 *            them, counter rates included); ndbinfo-link: {"state":{SourceState}}; ndbinfo-load: {"load":{SelfLoad}}.
 *            None carries the SQL password (the source keeps it; SQL nodes are named by their display URL). Files
 *            written before ndbinfo have none of them and replay without ndbinfo figures.
 *            run: {"op":"start","runId","name","tags","phase"?} | {"op":"phase","runId","name"} | {"op":"stop","runId"}
 *   output   {"c":"<clusterId>","kind":"snapshot","t":<ms>,"version":n,"snapshot":{ClusterSnapshot}}
 *            {"c":"<clusterId>","kind":"delta","t":<ms>,"delta":{SnapshotDelta}}
 *   keyframe {"c":"<clusterId>","kind":"keyframe","t":<ms>,"cluster":{cluster line},"inputs":[input lines]}
 *   digest   {"c":"<clusterId>","kind":"digest","t":<ms>,"v":1,…}  in a member of its own (flag DIGEST) before each keyframe
 *            and at the close: what a run's report reads of the stretch since the previous one (`features/runs/run-digest.ts`)
 *
 * Inputs are what the engine was told (get status replies, events, memory reports, link states, operator stop
 * requests, acknowledgements, one-second ticks); a replay feeds them back through the same tracker, so it derives
 * what the live engine derived. Outputs are the snapshots and deltas that were pushed, kept so a replay can be
 * checked against them and so tools can read the file without running the engine. Every KEYFRAME_MS a member
 * starts with one keyframe per cluster: its cluster line and the newest input of each kind that is state rather
 * than history (configuration, status, memory, connection) plus the marks of its running run, so a replay can
 * start at that member (seek) and a run can be summarised from the keyframe before it. Reading from the start
 * skips keyframes. Digests are outputs too: a replay skips them unparsed, as it does snapshots and deltas, and
 * `ndbtop report` reads them alone where they cover a run. The writer flushes at least every FLUSH_MS, so a crash loses at most that much; a reader skips a torn last line
 * (or member) and reports it. Files written before node views lost their own `sampledAt` (the poll time is the
 * snapshot's), or before rates, memory figures and the connection lost their arrival times, are read in today's
 * shape (`recording-upgrade.ts`).
 */
export const RECORDING_FORMAT = 'ndbtop-recording';
export const RECORDING_VERSION = 1;
export const FLUSH_MS = 250;
export const KEYFRAME_MS = 10_000;

export interface RecordingHeader {
  format: typeof RECORDING_FORMAT;
  version: number;
  createdAt: number;
  engine: string;
}

export type ClusterLine = { c: string; kind: 'cluster'; t: number; name: string; connectstring: string; mode: ConnectionView['mode']; collapse?: CollapseConfig; rateInstances?: RateInstances };
export type InputLine = TrackerInput & { c: string };
export type OutputLine =
  | { c: string; kind: 'snapshot'; t: number; version: number; snapshot: ClusterSnapshot }
  | { c: string; kind: 'delta'; t: number; delta: SnapshotDelta };
export type KeyframeLine = { c: string; kind: 'keyframe'; t: number; cluster: ClusterLine; inputs: InputLine[] };
export type RecordingLine = ClusterLine | InputLine | OutputLine | KeyframeLine;

const INPUT_KINDS = new Set<string>(['status', 'event', 'memory', 'connection', 'requested', 'planned', 'ack', 'tick', 'config', 'run', 'maintenance', 'ndbinfo', 'ndbinfo-link', 'ndbinfo-load', 'rolling-plan']);

export function isInputLine(line: RecordingLine): line is InputLine {
  return INPUT_KINDS.has(line.kind);
}

export function isOutputLine(line: RecordingLine): line is OutputLine {
  return line.kind === 'snapshot' || line.kind === 'delta';
}
