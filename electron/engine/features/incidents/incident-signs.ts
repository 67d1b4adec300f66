import type { IncidentCauseKind, IncidentEvidence, IncidentFigure } from '../../../contract/schemas/incidents.js';
import { arbitrationLost, arbitrationWon, decodeTextWords, type ClusterEvent } from '../../../../native-mgm/index.js';
import { figureValue } from '../../../contract/page-safe/incident-words.js';
import { join64 } from '../../cluster/join64.js';
import { eventText } from '../../facts/events/event-text.js';
import { exitCodeMeaning, exitCodeText } from './exit-codes.js';

/**
 * One thing seen that points at a cause, with how strongly: 3 an event that says it (a neighbour declared the node
 * dead, the node's own exit code), 2 an event that makes it likely (a checkpoint stopped, the redo log nearly full),
 * 1 a figure alone (a fill high in the minute before). A cause is named from 2 up; below that it is only possible.
 */
export interface Sign {
  kind: IncidentCauseKind;
  weight: number;
  evidence: IncidentEvidence;
}

/** NDBD_EXIT_SYSTEM_ERROR: "System error, node killed during node restart by other node". */
const KILLED_BY_OTHER_NODE = 2303;
/** MemoryUsage `block` 249: data memory (spec §6.7). */
const DATA_MEMORY_BLOCK = 249;
/** Text events: their words are the message's bytes (spec §6.3). */
const TEXT_EVENTS = new Set(['WarningEvent', 'InfoEvent']);
/**
 * The catalogue has no GCP-stop event: the kernel says it in a text event (WarningEvent/InfoEvent); its exact words
 * are not in the references, so any text naming a GCP stop or the GCP monitor counts.
 */
const GCP_STOP_TEXT = /gcp[ _-]?stop|gcp monitor|global checkpoint (stop|stall)/i;

/** Events a node's fall is told by (kept for a minute and more before it), beyond statistics and routine checkpoints. */
const STORY = new Set([
  'MissedHeartbeat',
  'DeadDueToHeartbeat',
  'ArbitState',
  'ArbitResult',
  'NDBStopStarted',
  'NDBStopCompleted',
  'NDBStopForced',
  'NDBStopAborted',
  'NODE_FAILREP',
  'NodeFailCompleted',
  'Disconnected',
  'TransporterError',
  'LCPStoppedInCalcKeepGci',
  'UndoLogBlocked',
  'RedoStatus',
  'MemoryUsage',
  'GCP_TakeoverStarted',
  'ConnectCheckStarted',
  'ConnectCheckCompleted',
  'NodeFailRejected',
  ...TEXT_EVENTS,
]);

/** The event's sentence (text events decoded). */
export function storyText(e: ClusterEvent): string {
  return TEXT_EVENTS.has(e.name) && e.data ? `Node ${e.sourceNodeId}: ${decodeTextWords(e.data)}` : eventText(e);
}

/** Whether an event belongs to a fall's story: the kinds above; a memory report only when it crossed a threshold. */
export function isStoryEvent(e: ClusterEvent): boolean {
  if (!STORY.has(e.name)) return false;
  return e.name !== 'MemoryUsage' || (e.fields.gth ?? 0) !== 0;
}

/** Whom an event is about: the node it names, else its source, or the whole cluster. */
export function subjectOf(e: ClusterEvent): number | 'cluster' {
  const f = e.fields;
  // An event about a node (a missed heartbeat, a failure report) concerns that node, not the one reporting it.
  const subject = f.node ?? f.failed_node ?? f.to_node;
  if (subject !== undefined) return subject;
  // Arbitration and checkpoint stalls are the cluster's, whoever reports them; a text only when it names the stall.
  const cluster = e.name === 'ArbitState' || e.name === 'ArbitResult' || e.name === 'LCPStoppedInCalcKeepGci' || (TEXT_EVENTS.has(e.name) && GCP_STOP_TEXT.test(storyText(e)));
  return cluster ? 'cluster' : e.sourceNodeId;
}

/** Whether an event is about one of `nodes` (its source, or the node it names), or about the whole cluster. */
export function concerns(e: ClusterEvent, nodes: ReadonlySet<number>): boolean {
  const subject = subjectOf(e);
  return subject === 'cluster' || nodes.has(subject);
}

const evidence = (e: ClusterEvent, text = storyText(e)): IncidentEvidence => ({ at: e.receivedAt, source: 'event', text });
const sign = (kind: IncidentCauseKind, weight: number, ev: IncidentEvidence): Sign[] => [{ kind, weight, evidence: ev }];

/** What one event about the fallen `nodes` says of the cause. */
export function eventSigns(e: ClusterEvent, nodes: ReadonlySet<number>): Sign[] {
  const f = e.fields;
  const own = nodes.has(e.sourceNodeId);
  switch (e.name) {
    case 'MissedHeartbeat':
      return nodes.has(f.node ?? -1) ? sign('heartbeat', 1, evidence(e)) : [];
    case 'DeadDueToHeartbeat':
      return nodes.has(f.node ?? -1) ? sign('heartbeat', 3, evidence(e)) : [];
    case 'ArbitState':
    case 'ArbitResult': {
      const code = f.code ?? 0;
      if (arbitrationLost(code)) return sign('arbitration', 3, evidence(e));
      return arbitrationWon(code) && !own ? sign('arbitration', 2, evidence(e)) : [];
    }
    case 'NDBStopForced': {
      if (!own) return [];
      const code = f.error ?? 0;
      // The sentence names the code (and a signal after it); the manual's text follows, so the code is named once and
      // the story's sentence stays the start of the evidence's ("…, error 2341: Internal program error …").
      const said = evidence(e, `${eventText(e)}: ${exitCodeText(code)}`);
      // Killed by another node: a running node's is most often the master's answer to a GCP stop, which ndbtop
      // cannot see itself (GlobalCheckpointStarted/Completed need CHECKPOINT 9/10; the monitor listens at 7).
      if (code === KILLED_BY_OTHER_NODE) return [...sign('gcp-stop', 2, { ...said, text: `${said.text} (another node killed it: what the master does to the node holding a stalled global checkpoint)` }), ...sign('error', 2, said)];
      return sign(exitCodeMeaning(code).kind, 3, said);
    }
    case 'NDBStopStarted':
    case 'NDBStopCompleted':
      return own ? sign('operator', 3, evidence(e)) : [];
    case 'LCPStoppedInCalcKeepGci':
      return sign('redo-full', 2, evidence(e));
    case 'UndoLogBlocked':
      return own ? sign('undo-full', 2, evidence(e)) : [];
    case 'RedoStatus': {
      const total = join64(f.total_hi, f.total_lo);
      const free = join64(f.free_hi, f.free_lo);
      if (!own || total <= 0) return [];
      const used = Math.round((1 - free / total) * 100);
      return used >= 90 ? sign('redo-full', 2, evidence(e, `Node ${e.sourceNodeId}: redo log part ${f.log_part ?? '?'} ${used} % used (${free} of ${total} free, in the units the event gives)`)) : [];
    }
    case 'MemoryUsage': {
      const total = f.pages_total ?? 0;
      const used = total > 0 ? ((f.pages_used ?? 0) * 100) / total : 0;
      return own && f.block === DATA_MEMORY_BLOCK && used >= 98 ? sign('memory', 2, evidence(e)) : [];
    }
    default:
      return TEXT_EVENTS.has(e.name) && GCP_STOP_TEXT.test(storyText(e)) ? sign('gcp-stop', 3, evidence(e)) : [];
  }
}

/** Figure names (`before.figures`) that point at a cause when high, and the mark. */
const FIGURE_SIGNS: ReadonlyArray<{ name: string; kind: IncidentCauseKind; mark: number }> = [
  { name: 'redo log fill (fullest part)', kind: 'redo-full', mark: 90 },
  { name: 'undo log fill (fullest part)', kind: 'undo-full', mark: 90 },
  { name: 'DataMemory used', kind: 'memory', mark: 98 },
];
/** Figures that back a cause already named by events: a starved thread behind missed heartbeats, slow disk behind a GCP stop. */
const SUPPORTING: ReadonlyArray<{ name: RegExp; kind: IncidentCauseKind; mark: number }> = [
  { name: /thread(s)? CPU$/, kind: 'heartbeat', mark: 90 },
  { name: /^redo I\/O lag/, kind: 'gcp-stop', mark: 1 },
  { name: /^redo I\/O lag/, kind: 'redo-full', mark: 1 },
];

const figureWords = (f: IncidentFigure): string => `Node ${f.nodeId}: ${f.name} peaked at ${figureValue(f.peak, f.unit)} in the minute before (last ${figureValue(f.last, f.unit)})`;

/** What the figures of the minute before say: a fill high enough to name a cause weakly, and figures that back one. */
export function figureSigns(figures: readonly IncidentFigure[], named: ReadonlySet<IncidentCauseKind>): Sign[] {
  const out: Sign[] = [];
  for (const f of figures) {
    const ev: IncidentEvidence = { at: f.at, source: f.source, text: figureWords(f) };
    for (const s of FIGURE_SIGNS) if (f.name === s.name && f.peak >= s.mark) out.push({ kind: s.kind, weight: 1, evidence: ev });
    for (const s of SUPPORTING) if (s.name.test(f.name) && f.peak >= s.mark && named.has(s.kind)) out.push({ kind: s.kind, weight: 0, evidence: ev });
  }
  return out;
}
