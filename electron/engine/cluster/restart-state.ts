import { RESTART_PHASES, runningPhase } from '../../contract/page-safe/restart-phases.js';
import type { NdbinfoNode, NdbinfoRestart } from '../../contract/schemas/ndbinfo.js';
import type { NodeStatus, RestartState } from '../../contract/schemas/node.js';

/** What the management server says of a data node: its status and last completed start phase, and since when. */
export interface MgmRestartFact {
  status: NodeStatus;
  startPhase: number;
  /** When the status or the start phase last changed. */
  since: number;
  /** false once the management server is lost or the node out of contact: the fact is the last seen. */
  current: boolean;
}

/** ndbinfo's `restart_info` row of the node as last read, with `since` (when this status was first read). */
export type NdbinfoRestartFact = Pick<NdbinfoRestart, 'at' | 'statusName' | 'inProgress' | 'phases' | 'totalSecs' | 'since'> & { stale: boolean };

/** A node's restart_info row from its ndbinfo figures, stale with them; null without one. */
export function ndbinfoRestartFact(figures: NdbinfoNode | undefined): NdbinfoRestartFact | null {
  return figures?.restart ? { ...figures.restart, stale: figures.stale } : null;
}

const ORDER = new Map(RESTART_PHASES.map((p, i) => [p.key, i]));
const WORDS = new Map(RESTART_PHASES.map((p) => [p.key, p.words]));

/**
 * The restart phase a node is at least in once the management server reports start phase `completed` done. The
 * start phases and restart_info's statuses are different vocabularies: in a node restart start phase 5 holds the
 * dictionary copy, local recovery and the copy of the data, and the node waits for a local checkpoint and hands
 * over its event subscriptions after it (spec §8.2; the simulator's restart log follows the same course). Floors
 * only: where ndbinfo names a phase at or past the floor, ndbinfo's is the more specific and wins.
 */
export function phaseFloor(completed: number): string {
  if (completed <= 1) return 'join';
  if (completed <= 3) return 'permission';
  if (completed === 4) return 'dictionary';
  if (completed === 5) return 'copy';
  if (completed <= 7) return 'lcp';
  return 'handover';
}

const MGM_WORDS: Partial<Record<NodeStatus, { state: RestartState['state']; words: string }>> = {
  STARTED: { state: 'started', words: 'started' },
  'SINGLE USER MODE': { state: 'started', words: 'started (single user mode)' },
  SHUTTING_DOWN: { state: 'stopping', words: 'shutting down' },
  NO_CONTACT: { state: 'down', words: 'not in contact' },
  NOT_STARTED: { state: 'down', words: 'not started' },
  UNKNOWN: { state: 'down', words: 'status unknown' },
};

function fromMgm(m: MgmRestartFact): RestartState {
  if (m.status === 'STARTING' || m.status === 'RESTARTING') {
    const phase = phaseFloor(m.startPhase);
    return { state: 'restarting', phase, words: WORDS.get(phase) ?? phase, source: 'mgm', since: m.since, startPhase: m.startPhase };
  }
  const known = MGM_WORDS[m.status] ?? { state: 'down', words: m.status.replace(/_/g, ' ').toLowerCase() };
  return { ...known, phase: null, source: 'mgm', since: m.since, startPhase: null };
}

function fromNdbinfo(r: NdbinfoRestartFact, phase: string | null, startPhase: number | null): RestartState {
  const since = r.since ?? r.at;
  if (phase === null) return { state: 'started', phase: null, words: 'restart completed', source: 'ndbinfo', since, startPhase };
  return { state: 'restarting', phase, words: WORDS.get(phase) ?? phase, source: 'ndbinfo', since, startPhase };
}

/**
 * One state of a restarting data node from both sources. The management server is the faster of the two and says
 * whether the node is up, down or starting: while it is current, that stands (a STARTED node is not "waiting for a
 * local checkpoint" however late restart_info is). Within a start, restart_info names the phase more finely: it wins
 * when its phase is at or past the floor the start phase sets, and the start phase's floor wins over a row that lags
 * behind it. With the management server lost, the newer of the two wins.
 */
export function restartState(mgm: MgmRestartFact, ndbinfo: NdbinfoRestartFact | null): RestartState {
  const own = fromMgm(mgm);
  if (!ndbinfo || ndbinfo.inProgress === undefined) return own;
  const phase = runningPhase(ndbinfo);
  const rowSince = ndbinfo.since ?? ndbinfo.at;
  if (!mgm.current) return !ndbinfo.stale && rowSince > mgm.since && (phase !== null || !ndbinfo.inProgress) ? fromNdbinfo(ndbinfo, phase, null) : own;
  if (own.state !== 'restarting' || !ndbinfo.inProgress || phase === null) return own;
  if (ndbinfo.stale && rowSince < mgm.since) return own;
  const floor = ORDER.get(own.phase ?? '') ?? 0;
  return (ORDER.get(phase) ?? -1) >= floor ? fromNdbinfo(ndbinfo, phase, mgm.startPhase) : own;
}
