import { nodes } from '../execution/event-text.js';
import type { CheckResult, CheckSettings, Known, NdbFacts, Observation, RollingPlan } from '../types.js';

/** The redo limit NDB experts keep before taking a node down: its partner must absorb the load meanwhile. */
export const DEFAULT_CHECKS: CheckSettings = { backup: 'wait', redoLimitPct: 60, gcpLagMs: 10_000, allowUnchecked: false };

export const checksOf = (plan: RollingPlan): CheckSettings => plan.checks ?? DEFAULT_CHECKS;

const seconds = (ms: number): string => `${(Math.max(0, ms) / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;

const NONE_READ: Known<never> = { known: false, why: 'the status source reads no NDB facts' };

/** A check that cannot be made: halts, unless the operator allowed it (then said, once per step, with its reason). */
function cannot(check: CheckResult['check'], what: string, why: string, s: CheckSettings): CheckResult {
  return s.allowUnchecked
    ? { check, verdict: 'unchecked', figure: null, text: `${what} not checked (${why}): allowed by the operator` }
    : { check, verdict: 'halt', figure: null, text: `${what} cannot be checked (${why}): halting is the safe side (allow unchecked checks to go on without it)` };
}

function backupCheck(f: NdbFacts['backup'], s: CheckSettings): CheckResult {
  if (!f.known) return cannot('backup', 'whether a backup is running', f.why, s);
  const b = f.value;
  if (b === null) return { check: 'backup', verdict: 'pass', figure: 'none running', text: 'no backup running' };
  const text = `backup ${b.backupId} is running: a data node restarted now makes it fail`;
  return s.backup === 'wait'
    ? { check: 'backup', verdict: 'wait', figure: `backup ${b.backupId}`, text: `${text}; waiting for it to end` }
    : { check: 'backup', verdict: 'halt', figure: `backup ${b.backupId}`, text };
}

/** The step's nodes and every node of their node groups: the partners carry the load and the log while they are down. */
function redoNodes(plan: RollingPlan, step: readonly number[]): number[] {
  const groups = new Set(plan.nodeGroups.filter((g) => step.includes(g.nodeId) && g.nodeGroup !== 'none').map((g) => g.nodeGroup));
  const partners = plan.nodeGroups.filter((g) => groups.has(g.nodeGroup)).map((g) => g.nodeId);
  return [...new Set([...step, ...partners])].sort((a, b) => a - b);
}

function redoCheck(plan: RollingPlan, step: readonly number[], f: NdbFacts['redo'], s: CheckSettings): CheckResult {
  if (!f.known) return cannot('redo', 'the redo log fill', f.why, s);
  const wanted = redoNodes(plan, step);
  const read = f.value.filter((r) => wanted.includes(r.nodeId));
  const missing = wanted.filter((id) => !read.some((r) => r.nodeId === id));
  if (missing.length > 0) return cannot('redo', `the redo log fill of ${nodes(missing)}`, 'no logspaces reading for it', s);
  const worst = read.reduce((a, b) => (b.percent > a.percent ? b : a));
  const figure = `${Math.round(worst.percent)} % on node ${worst.nodeId}`;
  const over = read.filter((r) => r.percent > s.redoLimitPct);
  if (over.length === 0) return { check: 'redo', verdict: 'pass', figure, text: `redo log fill at most ${figure} (limit ${s.redoLimitPct} %)` };
  const list = over.map((r) => `node ${r.nodeId} ${Math.round(r.percent)} %`).join(', ');
  return { check: 'redo', verdict: 'halt', figure, text: `the redo log is filled over the limit of ${s.redoLimitPct} % (${list}): a node restarted now leaves its partners to log alone until a local checkpoint frees it` };
}

function gcpCheck(f: NdbFacts['gcp'], at: number, s: CheckSettings): CheckResult {
  if (!f.known) return cannot('gcp', 'the global checkpoint', f.why, s);
  const { gci, completedAt, watchedSince } = f.value;
  const lag = at - (completedAt ?? watchedSince);
  const figure = completedAt === null ? `none in ${seconds(lag)}` : `${seconds(lag)} ago`;
  if (lag > s.gcpLagMs) {
    const last = completedAt === null ? `no global checkpoint completed in the ${seconds(lag)} its events were watched` : `the last global checkpoint (${gci}) completed ${seconds(lag)} ago`;
    return { check: 'gcp', verdict: 'halt', figure, text: `the global checkpoint lags: ${last} (limit ${seconds(s.gcpLagMs)})` };
  }
  if (completedAt === null) return { check: 'gcp', verdict: 'wait', figure, text: `waiting for a global checkpoint to complete (none seen yet in ${seconds(lag)} of watching)` };
  return { check: 'gcp', verdict: 'pass', figure, text: `global checkpoint ${gci} completed ${figure} (limit ${seconds(s.gcpLagMs)})` };
}

function arbitratorCheck(f: NdbFacts['arbitrator'], s: CheckSettings): CheckResult {
  if (!f.known) return cannot('arbitrator', 'whether an arbitrator is there', f.why, s);
  const { nodeId, how } = f.value;
  if (nodeId === null) return { check: 'arbitrator', verdict: 'halt', figure: 'none', text: `no arbitrator (${how}): a node failure while a node group is short could split the cluster with no one to decide` };
  return { check: 'arbitrator', verdict: 'pass', figure: `node ${nodeId}`, text: `arbitrator node ${nodeId} (${how})` };
}

/**
 * What NDB needs before the step's nodes go down: no backup running (or wait for it), the redo log of the nodes and
 * their partners under the limit, the global checkpoint not lagging, an arbitrator there. Pure; each result carries
 * its figure, and a fact that could not be had is said as such.
 */
export function ndbChecks(plan: RollingPlan, step: readonly number[], obs: Observation): CheckResult[] {
  const s = checksOf(plan);
  const f = obs.ndb;
  return [
    backupCheck(f?.backup ?? NONE_READ, s),
    redoCheck(plan, step, f?.redo ?? NONE_READ, s),
    gcpCheck(f?.gcp ?? NONE_READ, obs.at, s),
    arbitratorCheck(f?.arbitrator ?? NONE_READ, s),
  ];
}
