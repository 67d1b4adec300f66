import { INCIDENT_CAUSE_KINDS, type IncidentCause, type IncidentCauseKind, type IncidentEvidence } from '../../../contract/schemas/incidents.js';
import type { Sign } from './incident-signs.js';

/** Where a forced shutdown's evidence names its exit code and the manual's text for it (`incident-signs.ts`). */
const ERROR_MARK = ', error ';
/** From this weight up a cause is named; below it, it is only possible (listed beside `unknown`). */
const NAMED = 2;

export interface CauseContext {
  nodeIds: readonly number[];
  /** The status the nodes fell to, as first seen. */
  status: string;
  noticedAt: number;
  beganBeforeWatching: boolean;
  /** Data nodes that reported winning arbitration (ArbitResult 42/46) in the story. */
  survivors: readonly number[];
}

export interface Causes {
  cause: IncidentCause;
  otherCauses: IncidentCause[];
}

const nodesWords = (ids: readonly number[]): string => (ids.length === 1 ? `Node ${ids[0]}` : `Nodes ${ids.slice(0, -1).join(', ')} and ${ids[ids.length - 1]}`);
const fell = (ids: readonly number[]): string => (ids.length === 1 ? 'was' : 'were');

/** The sentence an operator reads first, per kind. */
function sentence(kind: IncidentCauseKind, c: CauseContext, evidence: readonly IncidentEvidence[]): string {
  const who = nodesWords(c.nodeIds);
  const be = fell(c.nodeIds);
  switch (kind) {
    case 'heartbeat':
      return `${who} ${be} declared dead by ${c.nodeIds.length === 1 ? 'its' : 'their'} neighbours after missed heartbeats`;
    case 'arbitration':
      return `${who} lost arbitration after the cluster split and shut down${c.survivors.length > 0 ? `; ${nodesWords(c.survivors).replace(/^N/, 'n')} survived` : ''}`;
    case 'gcp-stop':
      return `${who} ${be} stopped by a GCP stop: the global checkpoint stalled (redo or disk too slow)`;
    case 'redo-full':
      return `The redo log filled faster than local checkpoints freed it and ${who.replace(/^N/, 'n')} went down`;
    case 'undo-full':
      return `The undo log filled and ${who.replace(/^N/, 'n')} went down`;
    case 'memory':
      return `${who} ran out of memory (DataMemory or an allocation at start)`;
    case 'error': {
      const forced = evidence.find((e) => e.text.includes(ERROR_MARK));
      return `${who} shut down after an error${forced ? `: ${forced.text.slice(forced.text.indexOf(ERROR_MARK) + 2)}` : ''}`;
    }
    case 'operator':
      return `${who} ${be} stopped by a command ndbtop did not send (another client, such as ndb_mgm)`;
    case 'unknown':
      return unknownSentence(c, evidence);
  }
}

function unknownSentence(c: CauseContext, evidence: readonly IncidentEvidence[]): string {
  const who = nodesWords(c.nodeIds);
  if (c.beganBeforeWatching) return `${who} ${fell(c.nodeIds)} already down (${c.status}) when ndbtop began watching: what made ${c.nodeIds.length === 1 ? 'it' : 'them'} fall happened before ndbtop could see it`;
  const seen = evidence.filter((e) => e.source !== 'status').length;
  return `${who} left STARTED (now ${c.status}) and what ndbtop saw names no cause: ${seen === 0 ? 'no heartbeat, arbitration, checkpoint, log, memory or shutdown event about it' : `${seen} event${seen === 1 ? '' : 's'} and figure${seen === 1 ? '' : 's'}, none saying why`}`;
}

const byTime = (a: IncidentEvidence, b: IncidentEvidence): number => a.at - b.at;

/**
 * The cause the signs name: the heaviest kind from NAMED up (ties go to the more specific kind, in the contract's
 * order), every other named kind beside it with its own evidence; none named: `unknown`, with what was seen as its
 * evidence and the merely possible kinds beside it.
 */
export function judgeCauses(signs: readonly Sign[], seen: readonly IncidentEvidence[], c: CauseContext): Causes {
  const kinds = new Map<IncidentCauseKind, { weight: number; evidence: IncidentEvidence[]; quoted: Set<string> }>();
  for (const s of signs) {
    const k = kinds.get(s.kind) ?? { weight: 0, evidence: [], quoted: new Set<string>() };
    k.weight += s.weight;
    // The same sentence at the same time is quoted once (a storm repeats it).
    const key = `${s.evidence.at} ${s.evidence.text}`;
    if (!k.quoted.has(key)) {
      k.quoted.add(key);
      k.evidence.push(s.evidence);
    }
    kinds.set(s.kind, k);
  }
  const ranked = [...kinds.entries()].filter(([, k]) => k.weight > 0).sort(([ka, a], [kb, b]) => b.weight - a.weight || INCIDENT_CAUSE_KINDS.indexOf(ka) - INCIDENT_CAUSE_KINDS.indexOf(kb));
  const cause = (kind: IncidentCauseKind, evidence: IncidentEvidence[]): IncidentCause => {
    const sorted = [...evidence].sort(byTime);
    return { kind, text: sentence(kind, c, sorted), evidence: sorted };
  };
  const named = ranked.filter(([, k]) => k.weight >= NAMED);
  const [first, ...rest] = named;
  if (first) return { cause: cause(first[0], first[1].evidence), otherCauses: rest.map(([kind, k]) => cause(kind, k.evidence)) };
  return { cause: cause('unknown', [...seen]), otherCauses: ranked.map(([kind, k]) => cause(kind, k.evidence)) };
}
