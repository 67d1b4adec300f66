import { figureValue, type Incident, type IncidentSummary } from '../../contract.js';

/** One mark on the incident's time axis: an event, a figure's reading, the fall itself, a restart phase. */
export interface TimelineMark {
  at: number;
  /** Seconds from the fall (negative before it). */
  offsetSecs: number;
  lane: 'event' | 'figure' | 'status' | 'phase';
  text: string;
  /** Is it evidence for the cause (or another possible one)? */
  evidence: boolean;
  /** A phase's span, seconds. */
  secs?: number;
}

export interface IncidentTimeline {
  from: number;
  to: number;
  marks: TimelineMark[];
}

const round1 = (v: number): number => Math.round(v * 10) / 10;

/**
 * The incident on one time axis: the minute before (its events and figures), the fall, then the restart's phases
 * one after the other from when the restart began; `now` ends an axis whose node is not back.
 */
export function incidentTimeline(i: Incident, now: number): IncidentTimeline {
  const quoted = new Set([i.cause, ...(i.otherCauses ?? [])].flatMap((c) => c.evidence.map((e) => `${e.at}|${e.text}`)));
  const offset = (at: number): number => round1((at - i.noticedAt) / 1000);
  const marks: TimelineMark[] = [];
  const seen = new Set<string>();
  const add = (m: Omit<TimelineMark, 'offsetSecs'>): void => {
    const key = `${m.lane}|${m.at}|${m.text}`;
    if (seen.has(key)) return;
    seen.add(key);
    marks.push({ ...m, offsetSecs: offset(m.at) });
  };
  const evidence = [i.cause, ...(i.otherCauses ?? [])].flatMap((c) => c.evidence);
  for (const e of evidence) add({ at: e.at, lane: e.source === 'status' ? 'status' : e.source === 'event' ? 'event' : 'figure', text: e.text, evidence: true });
  // An event the evidence quotes with more words (a forced shutdown with the manual's text for its code) is shown once.
  const quotedLonger = (at: number, text: string): boolean => evidence.some((e) => e.at === at && e.text !== text && e.text.startsWith(text));
  for (const e of i.before.events) if (!quotedLonger(e.at, e.text)) add({ at: e.at, lane: 'event', text: e.text, evidence: quoted.has(`${e.at}|${e.text}`) });
  for (const f of i.before.figures) add({ at: f.at, lane: 'figure', text: `Node ${f.nodeId}: ${f.name} ${figureValue(f.last, f.unit)} (peak ${figureValue(f.peak, f.unit)})`, evidence: false });
  add({ at: i.noticedAt, lane: 'status', text: `ndbtop saw ${i.nodeIds.length === 1 ? `node ${i.nodeIds[0]}` : `nodes ${i.nodeIds.join(', ')}`} leave STARTED`, evidence: false });
  let phaseAt = i.restart.startedAt;
  if (phaseAt !== null) {
    add({ at: phaseAt, lane: 'phase', text: 'restart began', evidence: false });
    for (const p of i.restart.phases) {
      const secs = p.secs ?? 0;
      add({ at: phaseAt, lane: 'phase', text: `${p.name}: ${secs} s${p.usualSecs === null ? '' : ` (usual ${p.usualSecs} s)`}`, evidence: false, secs });
      phaseAt += secs * 1000;
    }
    if (i.restart.backAt !== null) add({ at: i.restart.backAt, lane: 'phase', text: 'back STARTED', evidence: false });
  }
  marks.sort((a, b) => a.at - b.at || a.lane.localeCompare(b.lane));
  const end = i.restart.backAt ?? (i.restart.startedAt !== null ? Math.max(now, phaseAt ?? now) : Math.max(now, i.noticedAt));
  // The axis spans what was seen (with a margin), not the whole minute looked at: a quiet minute would crowd it to one side.
  const first = Math.min(...marks.map((m) => m.at));
  const to = Math.max(end, ...marks.map((m) => m.at), first + 1000);
  return { from: Math.max(i.before.from, first - (to - first) * 0.05), to, marks };
}

/** Tick steps in seconds: round to read, never two ticks with one label. */
const TICK_STEPS = [0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200];

/** A tick on the axis: where it is and its label, seconds (minutes from a 1-minute step) from the fall. */
export interface AxisTick {
  at: number;
  label: string;
}

/** A figure from the fall with its sign: after it "+", before it "-". */
export const signed = (v: number): string => (v > 0 ? `+${v}` : String(v));

/** Round ticks from the fall (0 s) both ways, at most `most` of them across the axis. */
export function timelineTicks(timeline: IncidentTimeline, noticedAt: number, most = 6): AxisTick[] {
  const spanSecs = (timeline.to - timeline.from) / 1000;
  const step = TICK_STEPS.find((s) => spanSecs / s <= most - 1) ?? Math.ceil(spanSecs / (most - 1) / 3600) * 3600;
  const ticks: AxisTick[] = [];
  for (let k = Math.ceil((timeline.from - noticedAt) / 1000 / step); noticedAt + k * step * 1000 <= timeline.to; k++) {
    const secs = Number((k * step).toPrecision(12));
    ticks.push({ at: noticedAt + secs * 1000, label: step >= 60 ? `${signed(secs / 60)} min` : `${signed(secs)} s` });
  }
  return ticks;
}

/** While this long after it was noticed, or while its node is not back, an incident badges its node's card. */
export const RECENT_MS = 30 * 60_000;

/** The node's newest incident while recent, else null. */
export function recentIncident(incidents: readonly IncidentSummary[], nodeId: number, now: number): IncidentSummary | null {
  const i = incidents.find((x) => x.nodeIds.includes(nodeId));
  if (!i) return null;
  return i.restart.backAt === null || now - i.noticedAt < RECENT_MS ? i : null;
}
