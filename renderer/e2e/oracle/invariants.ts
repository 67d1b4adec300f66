import type { AlertKind, ClusterSnapshot } from '../../../electron/contract/index.js';
import { backupEtaContainsEnd, backupMatchesSource, backupShowsEngine } from './backup-invariants.js';
import { ACTIVE, ENGINE_READS, STATUSES_SEEN, type Frame, type Violation } from './frame.js';
import { incidentBeganAfterReturn, incidentCauseMatchesScenario, incidentNodesMatchSource, incidentRestartMatchesSource, incidentsShowEngine } from './incident-invariants.js';

/**
 * The oracle's catalogue: what must hold between what the page shows, what the engine says and what the simulator
 * did, at every frame. Each check is pure (a recorded frame in, the contradictions out, both statements in each), so
 * it is unit-tested on frames (invariants.test.ts) as well as run against every scenario (oracle-*.test.ts).
 * To add one: append to INVARIANTS; a test frame that breaks it and one that keeps it go to invariants.test.ts.
 */
export interface Invariant {
  id: string;
  description: string;
  /** `earlier`: the frames of the same run before this one, oldest first (for facts that only a run can show). */
  check(frame: Frame, earlier: readonly Frame[]): Violation[];
}

/** What a restart_info phase is, in the order a restart goes through them ('' = completed). */
const PHASE_ORDER = ['failure', 'join', 'permission', 'dictionary', 'include', 'restore', 'undo', 'redo', 'index', 'copy', 'lcp', 'handover'];
const COPY_AT = PHASE_ORDER.indexOf('copy');

/**
 * The least a STARTING node's restart_info phase can be, from the last start phase it completed (§8.2: `startphase` is
 * the last completed). The dictionary and the data are copied inside start phase 5: once phase 4 is done the node is at
 * least copying the dictionary, once phase 5 is done at least past copying data. The references give no mapping between
 * the two vocabularies; this one is the simulator's and the engine's (`cluster/restart-state.ts`).
 */
const leastPhase = (lastCompleted: number): number => (lastCompleted >= 5 ? COPY_AT : lastCompleted === 4 ? PHASE_ORDER.indexOf('dictionary') : -1);

/** How far behind the engine the page may be: a push and a paint. */
const PAGE_LAG_MS = 1000;

function nodeStatusAgrees(frame: Frame, earlier: readonly Frame[]): Violation[] {
  const out: Violation[] = [];
  const id = 'node-status-agrees';
  const reads = ENGINE_READS(frame, earlier);
  for (const card of frame.dom.cards) {
    const engine = STATUSES_SEEN(reads, card.nodeId);
    // A node that changed status between the reads may have passed through another (NO_CONTACT between SHUTTING_DOWN
    // and STARTING lasts a poll): a card is held to the engine only while the engine's reads agree with each other,
    // and not in the second after the status began (the first frame has no earlier read for the page's lag).
    const since = reads[0]?.nodes.find((n) => n.nodeId === card.nodeId)?.statusSince;
    const justChanged = since !== undefined && frame.at - since < PAGE_LAG_MS;
    if (engine.size === 1 && !justChanged && !engine.has(card.status as never)) {
      out.push({ invariant: id, said: `node card ${card.nodeId}: ${card.status}`, against: `engine snapshot: ${[...engine].join(' then ')}` });
    }
  }
  for (const r of frame.dom.restarting) {
    const phases = frame.dom.phases.find((p) => p.nodeId === r.nodeId);
    if (!phases) continue;
    const at = PHASE_ORDER.indexOf(phases.current);
    // The management server says the node is up: restart_info cannot still have it restarting.
    if (r.status === 'STARTED' && phases.current !== '') {
      out.push({ invariant: id, said: `rolling restart panel: "${r.text}"`, against: `Restart phases: node ${r.nodeId} ${phases.current}` });
    }
    // Past its start phases' least restart phase, restart_info cannot still have it earlier.
    if (r.status === 'STARTING' && at >= 0 && at < leastPhase(r.startPhase)) {
      out.push({ invariant: id, said: `rolling restart panel: "${r.text}"`, against: `Restart phases: node ${r.nodeId} ${phases.current}` });
    }
  }
  // A node whose restart is still running in the phases table is restarting in the rolling panel beside it.
  if (frame.dom.rollingState === 'running') {
    for (const p of frame.dom.phases) {
      if (p.current === '' || frame.dom.restarting.some((r) => r.nodeId === p.nodeId)) continue;
      out.push({ invariant: id, said: `Restart phases: node ${p.nodeId} ${p.current}`, against: `rolling restart panel: node ${p.nodeId} is not restarting` });
    }
  }
  return out;
}

/** The kinds whose message states a level in per cent, and the node's present level from the snapshot. */
const LEVEL: Partial<Record<AlertKind, (s: ClusterSnapshot, nodeId: number, message: string) => number | null>> = {
  'log-fill-high': logFill,
  'log-fill-critical': logFill,
  'memory-high': memoryUse,
  'memory-critical': memoryUse,
};

function logFill(s: ClusterSnapshot, nodeId: number, message: string): number | null {
  const node = s.ndbinfoNodes?.find((n) => n.nodeId === nodeId);
  const log = /undo/i.test(message) && !/redo/i.test(message) ? node?.undo : node?.redo;
  return log?.percent ?? null;
}

function memoryUse(s: ClusterSnapshot, nodeId: number): number | null {
  const node = s.nodes.find((n) => n.nodeId === nodeId);
  const use = [node?.memory.data?.percent, node?.memory.index?.percent].filter((p): p is number => typeof p === 'number');
  return use.length === 0 ? null : Math.max(...use);
}

/** The per-cent figures a text states, leaving out thresholds ("≥ 90 %", "> 80 %"). */
export function statedPercents(text: string): number[] {
  return [...text.matchAll(/(≥|>=|>|above|over)?\s*(\d+(?:\.\d+)?)\s*%/g)].filter((m) => !m[1]).map((m) => Number(m[2]));
}

const NEAR = 5;

/** An alert as one place states it: the engine's list, the alert history, a banner row. */
interface AlertStatement {
  where: string;
  kind: string;
  /** The nodes it speaks of: its own, or (a cluster's alert, a folded row) every data node it may mean. */
  nodeIds: number[];
  message: string;
}

function activeStatements(frame: Frame): AlertStatement[] {
  const dataNodes = frame.after.nodes.filter((n) => n.type === 'NDB').map((n) => n.nodeId);
  return [
    ...frame.after.alerts.filter(ACTIVE).map((a) => ({ where: `active alert (${a.kind})`, kind: a.kind, nodeIds: a.nodeId !== null ? [a.nodeId] : (a.clusterWide?.nodeIds ?? dataNodes), message: a.message })),
    ...frame.history.filter((e) => e.clearedAt === null).map((e) => ({ where: `alert history (${e.kind})`, kind: e.kind, nodeIds: e.nodeId !== null ? [e.nodeId] : dataNodes, message: e.message })),
    ...frame.dom.banner.map((b) => ({ where: `banner row (${b.kind})`, kind: b.kind, nodeIds: b.nodeId !== null ? [b.nodeId] : dataNodes, message: b.text })),
  ];
}

function alertStatesPresent(frame: Frame): Violation[] {
  const out: Violation[] = [];
  for (const alert of activeStatements(frame)) {
    const level = LEVEL[alert.kind as AlertKind];
    const stated = statedPercents(alert.message);
    if (!level || stated.length === 0) continue;
    // Each node's level now, as the engine read it before and after the page (the page may show either).
    const present = alert.nodeIds.flatMap((nodeId) => [frame.before, frame.after].map((s) => level(s, nodeId, alert.message))).filter((p): p is number => p !== null);
    if (present.length === 0) continue;
    if (stated.some((f) => present.some((p) => Math.abs(f - p) <= NEAR))) continue;
    const now = [...new Set(present.map((p) => `${p.toFixed(1)} %`))].join(', ');
    out.push({ invariant: 'alert-states-present', said: `${alert.where}: "${alert.message}"`, against: `${alert.nodeIds.length === 1 ? `node ${alert.nodeIds[0]}` : 'its data nodes'} now at ${now}` });
  }
  return out;
}

const RANK = { critical: 2, warning: 1 } as const;

function bannerLeadsWithWorst(frame: Frame, earlier: readonly Frame[]): Violation[] {
  const first = frame.dom.banner[0];
  if (!first) return [];
  // The worst active alert in every engine read the page may show: one that came or went meanwhile proves nothing.
  const worst = ENGINE_READS(frame, earlier).map((s) => Math.max(0, ...s.alerts.filter(ACTIVE).map((a) => RANK[a.severity])));
  const shown = RANK[first.severity as keyof typeof RANK] ?? 0;
  if (shown >= Math.min(...worst)) return [];
  const alert = frame.after.alerts.filter(ACTIVE).find((a) => RANK[a.severity] === Math.min(...worst));
  return [{ invariant: 'banner-most-severe', said: `banner's first row: ${first.severity.toUpperCase()} "${first.text}"`, against: `engine: active ${alert?.severity.toUpperCase() ?? ''} "${alert?.message ?? ''}"` }];
}

function lostSourceLastSeen(frame: Frame, earlier: readonly Frame[]): Violation[] {
  const out: Violation[] = [];
  const reads = ENGINE_READS(frame, earlier);
  const lost = (s: ClusterSnapshot): boolean => ['reconnecting', 'offline', 'stale'].includes(s.connection.status);
  const mgmdLost = reads.every(lost);
  for (const card of frame.dom.cards) {
    // On the first frame no earlier read bounds the page's lag: a node that went away just now may still show live.
    const away = earlier.length > 0 && reads.every((s) => s.nodes.find((n) => n.nodeId === card.nodeId)?.status === 'NO_CONTACT');
    if ((mgmdLost || away) && !card.old) {
      out.push({ invariant: 'lost-source-last-seen', said: `node card ${card.nodeId} shows its figures as current`, against: mgmdLost ? `engine: management server ${frame.after.connection.status}` : `engine: node ${card.nodeId} NO_CONTACT` });
    }
  }
  if (mgmdLost) {
    for (const f of frame.dom.figures.filter((x) => !x.stale)) {
      out.push({ invariant: 'lost-source-last-seen', said: `${f.where} "${f.text}" looks current`, against: `engine: management server ${frame.after.connection.status}` });
    }
  }
  return out;
}

/** Read under one window, another, then the first again: when the two reads under the first agree, the other must too. */
function etaIndependentOfWindow(frame: Frame): Violation[] {
  const reads = frame.etaByWindow ?? [];
  const first = reads[0];
  const last = reads.at(-1);
  const key = (e: Frame['dom']['eta']): string => (e ? `${e.min}–${e.max}` : 'none');
  // The ETA moved by itself between the reads (a restart finished): nothing to say about the window.
  if (!first || !last || reads.length < 3 || key(first.eta) !== key(last.eta)) return [];
  return reads
    .filter((r) => key(r.eta) !== key(first.eta))
    .map((r) => ({ invariant: 'eta-independent-of-window', said: `ETA under the ${first.window} window: ${key(first.eta)}`, against: `ETA under the ${r.window} window: ${key(r.eta)}` }));
}

function totalsAreSums(frame: Frame): Violation[] {
  const out: Violation[] = [];
  const s = frame.after;
  for (const g of s.nodeGroups) {
    const live = g.nodeIds.filter((id) => s.nodes.find((n) => n.nodeId === id)?.status === 'STARTED').length;
    if (live !== g.live) out.push({ invariant: 'totals-are-sums', said: `node group ${g.nodeGroup}: ${g.live} live`, against: `its nodes: ${live} STARTED` });
  }
  const c = s.rates?.contributing;
  if (c) {
    const dataNodes = s.nodes.filter((n) => n.type === 'NDB').length;
    if (c.of !== dataNodes) out.push({ invariant: 'totals-are-sums', said: `throughput summed over ${c.nodes} of ${c.of} data nodes`, against: `the cluster has ${dataNodes} data nodes` });
  }
  return out;
}

/** A number then a unit: %, bytes, per second, durations, or a count's noun. */
/** A number as the pages write one: "12", "12.5", "1,234,567". */
const NUMBER = String.raw`\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:[.,]\d+)?`;
const WITH_UNIT = new RegExp(String.raw`^((?:${NUMBER})\s*[kMGT]?)\s*(%|\/s|B\b|KiB|MiB|GiB|TiB|kB|MB|GB|ms\b|s\b|m\b|min\b|h\b|(seconds?|minutes?|hours?|days?)\b|[a-z]+\/s|pages\b|ops\b|transactions|reads|writes|aborts|records\b|bytes\b)`);
/**
 * Counts stated as such: "2 of 4", "8 done, 40 to go", "3 connected + 5 free slots", "(174 since start)", "from 9
 * restarts", "×48", "+4 more active"; and ranges of ids ("nodes 2–11").
 */
const COUNTED = /^\d+\s*(of\b|[–-]\s?\d|done|to go|were live|live|more|connected|free slots?|((resolved|active|open|new|older|other|failed|running)\s)?alerts?|data nodes?|nodes?\b|restarts?|since start|alerts?|active|rows?\b|times?\b|events?|steps?|checks?|runs?|phases?|management servers?|API nodes?|members?|replicas?|slots?|points|entries|crossings?|windows?|threads?|parts?|node groups?|failovers?|samples?|queries|readings?|heartbeats?)/i;
/**
 * Words a number names something after: "node 3", "NG 0", "phase 5", "part 3", "×5", "error 6000", "signal 6" (an
 * id or a code, not a figure).
 */
const NAMED = /(\b(node|nodes|NG|phase|phases|group|part|LCP|generation|step|id|run|mgmd|server|president|of|thread|instance|block|key|seed|port|version|nodeid|error|code|signal|backup|arbitrator)\s?|[#×+])$|\bnodes?:?\s(\d+(?:[–-]\d+)?(,\s|\sand\s))*$/i;

const unitAfter = (rest: string): boolean => WITH_UNIT.test(rest) || COUNTED.test(rest);

/**
 * Every number on screen has a unit, or is a name or a count stated as such. The figures the panels show
 * (`dom.figures`) and, where the frame has them, every visible text with a digit (`dom.texts`).
 */
function numbersHaveUnits(frame: Frame): Violation[] {
  const out: Violation[] = [];
  for (const f of [...frame.dom.figures, ...(frame.dom.texts ?? [])]) {
    // A figure whose unit is its neighbour's words ("12.8" beside "aborts/s"): judged in the text around it.
    const around = 'context' in f ? f.context : undefined;
    if (around !== undefined && /^\d+(?:[.,]\d+)?\s*[kMGT]?$/.test(f.text) && around.includes(f.text) && unitAfter(around.slice(around.indexOf(f.text)))) continue;
    // A lone number is an id (a tile's, a column's) or a key hint (a view's tab): nothing to measure.
    if (/^(\d+|\d{1,3}(,\d{3})+)$/.test(f.text) || /^\d+\s(mgm|api|MGM|API|DATA)\b/.test(f.text) || (f.where.startsWith('view-') && /^\d\s/.test(f.text))) continue;
    // A compact node group header's "live/members" ("2/2"): its title says "2 of 2 live".
    if (f.where.startsWith('nodegroup-') && /^\d+\/\d+$/.test(f.text)) continue;
    for (const m of f.text.matchAll(new RegExp(NUMBER, 'g'))) {
      const at = m.index ?? 0;
      // Digits inside a word, an address, a date or a version, names ("node 3", "phase 5") and clock times are not figures.
      if (at > 0 && /[\w:./–-]/.test(f.text[at - 1] ?? '')) continue;
      if (NAMED.test(f.text.slice(0, at))) continue;
      const rest = f.text.slice(at);
      if (/^\d+(?:[.,]\d+)?[\w:]*:\d/.test(rest) || /^\d+\.\d+\.\d/.test(rest) || /^\d{4}-\d\d/.test(rest)) continue;
      if (!unitAfter(rest)) out.push({ invariant: 'numbers-have-units', said: `${f.where}: "${f.text}"`, against: `"${m[0]}" has no unit after it` });
    }
  }
  return out;
}

const clockOf = (ms: number): string => new Date(ms).toISOString().slice(11, 19);

/**
 * The first ETA the page showed for a rolling-restart round contains its finish: the finish the engine's snapshot
 * says once a run sees the round end (its last restart's end), or, before that (a short run), the finish the
 * simulator's own timings give (`truth.roundFinish`), checked once, when both are first known.
 */
function etaContainsFinish(frame: Frame, earlier: readonly Frame[]): Violation[] {
  const round = frame.after.rollingRestart;
  if (!round) return [];
  const ofRound = (f: Frame): boolean => f.after.rollingRestart?.startedAt === round.startedAt;
  const first = [...earlier, frame].find((f) => f.dom.eta !== null && ofRound(f));
  if (!first?.dom.eta) return [];
  const ended = earlier.at(-1)?.after.rollingRestart?.complete === false && round.complete;
  const previous = earlier.at(-1);
  const toldBefore = previous !== undefined && ofRound(previous) && (previous.truth.roundFinish ?? null) !== null && first !== frame;
  const predicted = !round.complete && !toldBefore ? (frame.truth.roundFinish ?? null) : null;
  const finish = ended ? Math.max(...round.restarts.map((r) => r.to ?? 0)) : predicted;
  if (finish === null) return [];
  const { min, max } = first.dom.eta;
  // The page shows whole seconds: a second either side is the same figure. A prediction also carries the simulator's
  // own slack (timers late on a loaded machine, restarts a few tens of ms apart): 2 % of the time still to go.
  const slack = 1000 + (ended ? 0 : 0.02 * Math.max(0, finish - first.at));
  if (finish >= min - slack && finish <= max + slack) return [];
  const what = ended ? 'the round finished at' : "the simulator's timings finish the round at";
  return [{ invariant: 'eta-contains-finish', said: `first ETA shown (second ${first.second}): ${clockOf(min)}${max !== min ? `–${clockOf(max)}` : ''}`, against: `${what} ${clockOf(finish)}` }];
}

/**
 * Engine and sources: every node the simulator has STARTED for the whole frame is never shown as down for longer
 * than the engine's staleness allows — checked as "the engine's snapshot names a status the model had".
 */
function engineMatchesSource(frame: Frame, earlier: readonly Frame[]): Violation[] {
  const previous = earlier.at(-1);
  if (!previous) return [];
  const out: Violation[] = [];
  for (const t of frame.truth.nodes) {
    const was = previous.truth.nodes.find((n) => n.nodeId === t.nodeId);
    // Only a status the model held over two frames (a second or more) must have reached the engine.
    if (!was || was.status !== t.status) continue;
    const engine = frame.after.nodes.find((n) => n.nodeId === t.nodeId);
    if (engine && engine.status !== t.status && frame.truth.mgmdsUp > 0 && frame.after.connection.status !== 'reconnecting') {
      out.push({ invariant: 'engine-matches-source', said: `engine snapshot: node ${t.nodeId} ${engine.status}`, against: `simulator: node ${t.nodeId} ${t.status} for over a second` });
    }
  }
  return out;
}

/** The engine samples each second; a drawn step longer than this crosses seconds it has no figure for. */
const LONGEST_STEP_MS = 3000;

function chartBreaksAtGaps(frame: Frame): Violation[] {
  const chart = frame.dom.chart;
  // Over an hour the chart draws buckets, not seconds.
  if (!chart || chart.windowMs > 300_000) return [];
  const out: Violation[] = [];
  for (const line of chart.lines) {
    for (let i = 1; i < line.times.length; i++) {
      const [a, b] = [line.times[i - 1] ?? 0, line.times[i] ?? 0];
      if (b - a <= LONGEST_STEP_MS) continue;
      const clock = (ms: number): string => new Date(ms).toISOString().slice(11, 19);
      out.push({ invariant: 'chart-breaks-at-gaps', said: `throughput chart: ${line.series} drawn unbroken from ${clock(a)} to ${clock(b)}`, against: `the engine samples every second: ${Math.round((b - a) / 1000) - 1} s between have no figure` });
      break;
    }
  }
  return out;
}

export const INVARIANTS: readonly Invariant[] = [
  { id: 'node-status-agrees', description: 'two panels about one node agree on its status and restart state (cards, rolling panel, Restart phases, engine)', check: nodeStatusAgrees },
  { id: 'alert-states-present', description: 'no active alert states a figure more than 5 points from the present one without also stating the present one', check: alertStatesPresent },
  { id: 'banner-most-severe', description: "the banner's first alert is the most severe active one", check: bannerLeadsWithWorst },
  { id: 'lost-source-last-seen', description: 'a figure from a lost source is shown as last-seen', check: lostSourceLastSeen },
  { id: 'eta-independent-of-window', description: 'progress and ETA do not depend on the chart window', check: etaIndependentOfWindow },
  { id: 'chart-breaks-at-gaps', description: 'no chart draws across lost seconds (a line breaks where seconds have no figure)', check: chartBreaksAtGaps },
  { id: 'totals-are-sums', description: 'totals equal the sum of their parts (node-group live counts, throughput coverage)', check: totalsAreSums },
  { id: 'numbers-have-units', description: 'every figure on screen has a unit', check: numbersHaveUnits },
  { id: 'eta-contains-finish', description: "a rolling restart's first ETA (a range) contains the true finish", check: etaContainsFinish },
  { id: 'engine-matches-source', description: "the engine's node status is the simulator's once it has held for a second", check: engineMatchesSource },
  { id: 'backup-shows-engine', description: "the Backups view's running backup (written, records, rate, ETA, each node's row) and past backups are the engine's", check: backupShowsEngine },
  { id: 'backup-matches-source', description: "the engine's backups are the simulator's: which one runs, each node's bytes and records, the rate, the past ones' sums", check: backupMatchesSource },
  { id: 'backup-eta-contains-end', description: "every backup ETA range the Backups view shows contains the backup's real end", check: backupEtaContainsEnd },
  { id: 'incidents-show-engine', description: 'the Incidents view lists exactly the engine\'s incidents (kind, nodes, restart) and its open one says what the engine\'s does', check: incidentsShowEngine },
  { id: 'incident-cause-matches-scenario', description: 'every incident, in the engine and on the page, names the cause the simulator played', check: incidentCauseMatchesScenario },
  { id: 'incident-nodes-match-source', description: 'an incident\'s nodes are the ones the simulator took down then, and every fall is in an incident', check: incidentNodesMatchSource },
  { id: 'incident-restart-matches-source', description: "an incident's restart began and was back when the simulator's nodes began starting and were STARTED again", check: incidentRestartMatchesSource },
  { id: 'incident-began-after-return', description: "an incident's story (when it began, its evidence) starts after its nodes were last back STARTED: another fall's events are not its", check: incidentBeganAfterReturn },
];

/**
 * (scenario, invariant) pairs that break on this branch because of a defect another change fixes: the short variant
 * of npm test leaves them out and says so. Empty it as those fixes land; never weaken an invariant instead.
 * Key: `${scenario}@${dataNodes}` or `${scenario}@*`.
 */
export const KNOWN_BROKEN: Readonly<Record<string, Readonly<Record<string, string>>>> = {};

export function knownBroken(scenario: string, dataNodes: number, invariant: string): string | null {
  return KNOWN_BROKEN[`${scenario}@${dataNodes}`]?.[invariant] ?? KNOWN_BROKEN[`${scenario}@*`]?.[invariant] ?? null;
}
