import type { Incident, IncidentCauseKind } from '../../../electron/contract/index.js';
import { formatDateTime } from '../../src/view-model/format.js';
import type { Fall, Frame, IncidentsShown, Violation } from './frame.js';
import { clock, either, readBytes, readDuration, within } from './shown-figures.js';

/** How long the engine may take to see a status the simulator set: a poll (500 ms), its reply, the settle. */
const HEARD_MS = 1500;

/** The cause each failure scenario plays, as the engine must name it (node-failure: a crash on SIGABRT, exit code 6000). */
export const CAUSE_OF: Readonly<Record<string, IncidentCauseKind>> = {
  'heartbeat-failure': 'heartbeat',
  arbitration: 'arbitration',
  'gcp-stop': 'gcp-stop',
  'redo-full': 'redo-full',
  error: 'error',
  'node-failure': 'error',
};

/** The engine's incident lists the page may be showing: the previous frame's last read and this frame's two. */
const incidentReads = (frame: Frame, earlier: readonly Frame[]): Incident[][] =>
  [earlier.at(-1)?.incidents?.after, frame.incidents?.before, frame.incidents?.after].filter((l): l is Incident[] => l !== undefined);

const idsOf = (text: string): string => [...text.matchAll(/\d+/g)].map((m) => m[0]).join(',');

/** Whether the restart's words ("back after 12 s", "restarting since …, not back yet", "not restarting (yet)") say what the engine's restart does. */
function restartAgrees(words: string, r: Incident['restart']): boolean {
  if (r.startedAt === null) return words.startsWith('not restarting');
  if (r.backAt === null) return words.startsWith(`restarting since ${formatDateTime(r.startedAt)},`);
  const took = /^back after (.+?)(?: \(usual|$)/.exec(words);
  const read = took?.[1] ? readDuration(took[1]) : null;
  return read !== null && Math.abs(read.value - (r.totalSecs ?? 0) * 1000) <= read.slack + 50;
}

/** Whether a figure's words ("6.5 %", "0.5/s", "yes") stand for `value` in `unit`. */
function figureReads(text: string, value: number, unit: Incident['before']['figures'][number]['unit']): boolean {
  if (unit === 'flag') return text === (value >= 1 ? 'yes' : 'no');
  if (unit === 'B') {
    const read = readBytes(text);
    return read !== null && within(read, [value]);
  }
  const suffix = { '%': ' %', 'B/s': ' B/s', '/s': '/s', count: '' }[unit];
  return text.endsWith(suffix) && Math.abs(parseFloat(text) - value) <= 0.051;
}

/** The opened incident's kind, restart, timeline marks of the restart and figures of the minute before, against one engine incident. */
function detailAgrees(d: NonNullable<IncidentsShown['detail']>, i: Incident): boolean {
  if (d.kind !== i.cause.kind || !restartAgrees(d.restart, i.restart)) return false;
  // The timeline's restart marks, seconds from the fall (one decimal): the engine's start and return.
  const markAt = (text: string): number | null => {
    const m = d.marks.find((x) => x.lane === 'phase' && x.text === text);
    return m ? i.noticedAt + Number(m.offset) * 1000 : null;
  };
  const near = (shown: number | null, engine: number | null): boolean => (shown === null ? engine === null : engine !== null && Math.abs(shown - engine) <= 51);
  if (!near(markAt('restart began'), i.restart.startedAt) || !near(markAt('back STARTED'), i.restart.backAt)) return false;
  // Each restart phase the engine timed, with its seconds, and no other.
  const phases = d.marks.filter((m) => m.lane === 'phase' && m.text.startsWith('start phase ')).map((m) => m.text.replace(/ \(usual .*\)$/, ''));
  if (phases.join('|') !== i.restart.phases.map((p) => `${p.name}: ${p.secs ?? 0} s`).join('|')) return false;
  if (d.figures.length !== i.before.figures.length) return false;
  return d.figures.every((f) => {
    const e = i.before.figures.find((x) => x.nodeId === f.nodeId && x.name === f.name);
    return e !== undefined && figureReads(f.last, e.last, e.unit) && figureReads(f.peak, e.peak, e.unit);
  });
}

/** The Incidents view lists exactly the engine's incidents (ids, order, kind, nodes, restart), and its open one says what the engine's does. */
export function incidentsShowEngine(frame: Frame, earlier: readonly Frame[]): Violation[] {
  const shown = frame.dom.incidents;
  const reads = incidentReads(frame, earlier);
  if (!shown || reads.length === 0) return [];
  const id = 'incidents-show-engine';
  const rows = (list: readonly Incident[]): string => list.map((i) => `${i.id} ${i.cause.kind} nodes ${i.nodeIds.join(',')}`).join('; ') || 'none';
  const out: Violation[] = [];
  // An incident that changed between the reads (its restart moved on) may be shown as it was meanwhile.
  const moved = (incidentId: string): boolean => new Set(reads.map((l) => JSON.stringify(l.find((i) => i.id === incidentId) ?? null))).size > 1;
  const listed = reads.some((list) => list.length === shown.rows.length && list.every((i, k) => {
    const row = shown.rows[k];
    return row !== undefined && row.id === i.id && (moved(i.id) || (row.kind === i.cause.kind && idsOf(row.nodes) === i.nodeIds.join(',') && restartAgrees(row.restart, i.restart)));
  }));
  if (!listed) out.push({ invariant: id, said: `Incidents view lists: ${shown.rows.map((r) => `${r.id} ${r.kind} ${r.nodes}, ${r.restart}`).join('; ') || 'none'}`, against: `engine: ${either(reads.map((l) => `${rows(l)} (${l.map((i) => `${i.id}: ${restartText(i)}`).join('; ')})`))}` });
  const d = shown.detail;
  if (d) {
    const candidates = reads.flatMap((l) => l.filter((i) => i.id === d.id));
    if (!moved(d.id) && !candidates.some((i) => detailAgrees(d, i))) {
      const marks = d.marks.filter((m) => m.lane === 'phase').map((m) => `${m.offset} ${m.text}`).join(', ');
      out.push({
        invariant: id,
        said: `Incidents view, ${d.id} opened: ${d.kind}, "${d.restart}", restart marks ${marks || 'none'}, figures ${d.figures.map((f) => `${f.nodeId} ${f.name} ${f.last}/${f.peak}`).join(', ') || 'none'}`,
        against: `engine: ${either(candidates.map((i) => `${i.cause.kind}, ${restartText(i)}, figures ${i.before.figures.map((f) => `${f.nodeId} ${f.name} ${f.last}/${f.peak} ${f.unit}`).join(', ') || 'none'}`)) || `no incident ${d.id}`}`,
      });
    }
  }
  return out;
}

const restartText = (i: Incident): string => {
  const r = i.restart;
  const at = (t: number | null): string => (t === null ? '–' : `${clock(t)} (+${((t - i.noticedAt) / 1000).toFixed(1)} s)`);
  return `restart began ${at(r.startedAt)}, back ${at(r.backAt)}${r.totalSecs !== null ? ` after ${r.totalSecs} s` : ''}`;
};

/** Every incident's cause (the engine's and the page's) is the one the scenario played. */
export function incidentCauseMatchesScenario(frame: Frame): Violation[] {
  const expected = CAUSE_OF[frame.scenario];
  if (!expected) return [];
  const out: Violation[] = [];
  for (const i of frame.incidents?.after ?? []) {
    if (i.beganBeforeWatching || i.cause.kind === expected) continue;
    out.push({ invariant: 'incident-cause-matches-scenario', said: `engine: incident ${i.id} (nodes ${i.nodeIds.join(', ')}): ${i.cause.kind}: "${i.cause.text}"`, against: `simulator: the ${frame.scenario} scenario (${expected})` });
  }
  for (const row of frame.dom.incidents?.rows ?? []) {
    if (row.kind === expected) continue;
    out.push({ invariant: 'incident-cause-matches-scenario', said: `Incidents view: ${row.id} (${row.nodes}): ${row.kind}`, against: `simulator: the ${frame.scenario} scenario (${expected})` });
  }
  return out;
}

/** The simulator's fall of `nodeId` an incident noticed at `noticedAt` stands for (it came before the engine's poll saw it). */
const fallOf = (falls: readonly Fall[], nodeId: number, noticedAt: number): Fall | undefined =>
  falls.filter((f) => f.nodeId === nodeId && f.downAt <= noticedAt + 200 && f.downAt >= noticedAt - HEARD_MS * 2).at(-1);

/** The nodes of every incident are the ones the simulator took down then; every fall the engine had time to see is in an incident. */
export function incidentNodesMatchSource(frame: Frame): Violation[] {
  const falls = frame.truth.falls;
  const incidents = frame.incidents?.after;
  if (!falls || !incidents) return [];
  const id = 'incident-nodes-match-source';
  const out: Violation[] = [];
  const fallsOf = (nodeId: number): string => falls.filter((f) => f.nodeId === nodeId).map((f) => clock(f.downAt)).join(', ') || 'none';
  for (const i of incidents.filter((x) => !x.beganBeforeWatching)) {
    for (const nodeId of i.nodeIds) {
      if (!fallOf(falls, nodeId, i.noticedAt)) out.push({ invariant: id, said: `engine: incident ${i.id} has node ${nodeId}, noticed ${clock(i.noticedAt)}`, against: `simulator: node ${nodeId} left STARTED at ${fallsOf(nodeId)}` });
    }
  }
  for (const f of falls) {
    if (frame.at - f.downAt < HEARD_MS * 2) continue;
    if (incidents.some((i) => i.nodeIds.includes(f.nodeId) && fallOf(falls, f.nodeId, i.noticedAt) === f)) continue;
    out.push({ invariant: id, said: `simulator: node ${f.nodeId} left STARTED at ${clock(f.downAt)}`, against: `engine: ${incidents.filter((i) => i.nodeIds.includes(f.nodeId)).map((i) => `${i.id} noticed ${clock(i.noticedAt)}`).join(', ') || `no incident has node ${f.nodeId}`}` });
  }
  return out;
}

/** An incident's restart began and was back when the simulator's nodes began starting and were STARTED again. */
export function incidentRestartMatchesSource(frame: Frame): Violation[] {
  const falls = frame.truth.falls;
  if (!falls) return [];
  const id = 'incident-restart-matches-source';
  const out: Violation[] = [];
  for (const i of (frame.incidents?.after ?? []).filter((x) => !x.beganBeforeWatching)) {
    const mine = i.nodeIds.map((n) => fallOf(falls, n, i.noticedAt));
    if (mine.some((f) => f === undefined)) continue;
    const ups = mine.map((f) => f?.upAt ?? null);
    const back = ups.includes(null) ? null : Math.max(...(ups as number[]));
    const said = `engine: incident ${i.id} (nodes ${i.nodeIds.join(', ')}): ${restartText(i)}`;
    const sim = `simulator: ${mine.map((f) => `node ${f?.nodeId ?? '?'} starting ${f?.startingAt ? clock(f.startingAt) : '–'}, STARTED ${f?.upAt ? clock(f.upAt) : 'not yet'}`).join('; ')}`;
    if (back === null ? i.restart.backAt !== null : frame.at - back > HEARD_MS && (i.restart.backAt === null || Math.abs(i.restart.backAt - back) > HEARD_MS)) {
      out.push({ invariant: id, said, against: sim });
      continue;
    }
    const starting = mine.length === 1 ? mine[0]?.startingAt ?? null : null;
    if (starting !== null && frame.at - starting > HEARD_MS && (i.restart.startedAt === null || Math.abs(i.restart.startedAt - starting) > HEARD_MS)) out.push({ invariant: id, said, against: sim });
  }
  return out;
}

/** An incident's story begins after its nodes were last back STARTED in the simulator: what came before was another fall's. */
export function incidentBeganAfterReturn(frame: Frame): Violation[] {
  const falls = frame.truth.falls;
  if (!falls) return [];
  const out: Violation[] = [];
  for (const i of (frame.incidents?.after ?? []).filter((x) => !x.beganBeforeWatching)) {
    for (const nodeId of i.nodeIds) {
      const fall = fallOf(falls, nodeId, i.noticedAt);
      const back = falls.filter((f) => f.nodeId === nodeId && f !== fall && f.upAt !== null && f.upAt <= (fall?.downAt ?? i.noticedAt)).at(-1)?.upAt;
      // The two clocks may read a few ms apart.
      if (back !== undefined && back !== null && i.startedAt < back - 50) {
        out.push({ invariant: 'incident-began-after-return', said: `engine: incident ${i.id} (nodes ${i.nodeIds.join(', ')}) began ${clock(i.startedAt)}: "${i.cause.text}"`, against: `simulator: node ${nodeId} was back STARTED at ${clock(back)} from its previous fall` });
      }
    }
  }
  return out;
}
