import type { Bottleneck, BottleneckKind } from '../../../contract/schemas/runs.js';
import { THREAD_KINDS, type InsideFigure, type InsideWindow, type ThreadKindName } from '../../facts/ndbinfo/inside-history.js';
import { figureStats } from './stats.js';

/** A thread kind averaging this busy share (%) over the steady seconds cannot take more work. */
export const CPU_BOUND = 85;
/** Every kind under this (%) while throughput held: the data nodes had room to spare. */
const ROOM_TO_SPARE = 60;
/** Send buffer use (%) or share of seconds with a transporter overloaded or slowed down that limits sending. */
const SEND_BUFFER_FULL = 80;
const OVERLOADED_SHARE = 0.2;
/** Redo log fill (% of the worst part) at which writes are about to be refused, or I/O-lag slowdowns per second. */
const REDO_FULL = 80;
const IO_LAG_PER_SEC = 0.5;
/** Disk page buffer hit ratio under which disk data reads wait on the disk. */
const DISK_HIT_LOW = 0.9;
/**
 * Throughput within ±10 % of the median of the three samples around a second makes that second steady: short enough
 * for a 30 s phase watched from a simulator running 8× (four samples), long enough to leave ramps and falls out.
 */
const STEADY_BAND = 0.1;
const STEADY_HALF = 1;
/** Where throughput never held steady, the seconds within this share of its peak are read. */
export const NEAR_PEAK = 0.8;

const KIND_LABEL: Readonly<Record<ThreadKindName, string>> = { ldm: 'LDM', tc: 'TC', recv: 'receive', send: 'send', main: 'main' };

/** Positions whose throughput, and that of the seconds around them, held within the band: ramps and falls are left out. */
export function steadyIndices(values: readonly (number | null)[]): number[] {
  const out: number[] = [];
  for (let i = STEADY_HALF; i + STEADY_HALF < values.length; i++) {
    const around = values.slice(i - STEADY_HALF, i + STEADY_HALF + 1);
    if (around.some((v) => v === null || v <= 0)) continue;
    const median = figureStats(around)?.median ?? 0;
    if (around.every((v) => Math.abs((v as number) - median) <= median * STEADY_BAND)) out.push(i);
  }
  return out;
}

/** "2–5, 7": node ids as ranges. */
export function nodeRanges(ids: readonly number[]): string {
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === (sorted[j] as number) + 1) j++;
    parts.push(j > i + 1 ? `${sorted[i]}–${sorted[j]}` : j === i + 1 ? `${sorted[i]}, ${sorted[j]}` : String(sorted[i]));
    i = j + 1;
  }
  return parts.join(', ');
}

const nodesWord = (ids: readonly number[]): string => `${ids.length === 1 ? 'node' : 'nodes'} ${nodeRanges(ids)}`;
const pct = (v: number): string => `${Math.round(v)} %`;

/** Each data node's mean of each figure over some seconds, in ascending node order (figures it never had are absent). */
export type Means = Map<number, Partial<Record<InsideFigure, number>>>;

/** Each node's mean of each figure over the steady seconds (figures it never had are absent). */
function steadyMeans(inside: InsideWindow, times: readonly number[]): Means {
  const index = new Map(inside.at.map((t, i) => [t, i]));
  const positions = times.map((t) => index.get(t)).filter((i): i is number => i !== undefined);
  const out: Means = new Map();
  for (const [id, figures] of inside.nodes) {
    const means: Partial<Record<InsideFigure, number>> = {};
    for (const [f, values] of Object.entries(figures) as Array<[InsideFigure, Array<number | null>]>) {
      const mean = figureStats(positions.map((i) => values[i] ?? null))?.mean;
      if (mean !== undefined) means[f] = mean;
    }
    if (Object.keys(means).length > 0) out.set(id, means);
  }
  return out;
}

interface Extreme {
  nodeId: number;
  value: number;
}

function highest(means: Means, f: InsideFigure): Extreme | null {
  let best: Extreme | null = null;
  for (const [nodeId, m] of means) {
    const v = m[f];
    if (v !== undefined && (!best || v > best.value)) best = { nodeId, value: v };
  }
  return best;
}

function nodesAtLeast(means: Means, f: InsideFigure, mark: number): number[] {
  return [...means].filter(([, m]) => (m[f] ?? -Infinity) >= mark).map(([id]) => id);
}

function meanOf(means: Means, ids: readonly number[], f: InsideFigure): number {
  return ids.reduce((s, id) => s + (means.get(id)?.[f] ?? 0), 0) / Math.max(1, ids.length);
}

/** Per thread kind its average and busiest node; send buffers and transporter overload: what a collapse alert lists. */
function threadAndTransport(means: Means): string[] {
  const lines: string[] = [];
  for (const k of THREAD_KINDS) {
    const top = highest(means, k);
    if (top) lines.push(`${KIND_LABEL[k]} threads: ${pct(meanOf(means, [...means.keys()].filter((id) => means.get(id)?.[k] !== undefined), k))} busy on average, most on node ${top.nodeId} (${pct(top.value)})`);
  }
  const buf = highest(means, 'sendBuffer');
  if (buf) lines.push(`send buffers: up to ${pct(buf.value)} used (node ${buf.nodeId})`);
  const over = highest(means, 'overloaded');
  if (over) lines.push(`transporters overloaded or slowed down: ${over.value > 0 ? `${pct(over.value * 100)} of the time on node ${over.nodeId}` : 'never'}`);
  return lines;
}

/** Redo log, its disk and the disk page buffer. */
function storage(means: Means): string[] {
  const lines: string[] = [];
  const redo = highest(means, 'redoFill');
  if (redo) lines.push(`redo log: worst part up to ${pct(redo.value)} full (node ${redo.nodeId})`);
  const lag = highest(means, 'ioLag');
  if (lag) lines.push(`slowdowns due to I/O lag: ${lag.value.toFixed(1)}/s at most (node ${lag.nodeId})`);
  const hit = [...means].map(([nodeId, m]) => ({ nodeId, value: m.diskHit })).filter((x): x is Extreme => x.value !== undefined);
  const worstHit = hit.reduce<Extreme | null>((w, x) => (!w || x.value < w.value ? x : w), null);
  if (worstHit) lines.push(`disk page buffer: ${pct(worstHit.value * 100)} of page requests served without waiting for I/O at worst (node ${worstHit.nodeId})`);
  return lines;
}

/** The data nodes' thread and transport figures over a whole window (every second of it), for a collapse alert. */
export function insideFiguresOf(inside: InsideWindow): string[] {
  return threadAndTransport(steadyMeans(inside, inside.at));
}

const verdict = (kind: BottleneckKind, text: string, lines: string[]): Bottleneck => ({ kind, text, evidence: lines });

/** The CPU verdict: the kind whose busiest node is highest, if it reached CPU_BOUND, and the nodes near it. */
function cpuBound(means: Means, lines: string[]): Bottleneck | null {
  let top: { kind: ThreadKindName; value: number } | null = null;
  for (const k of THREAD_KINDS) {
    const h = highest(means, k);
    if (h && (!top || h.value > top.value)) top = { kind: k, value: h.value };
  }
  if (!top || top.value < CPU_BOUND) return null;
  const ids = nodesAtLeast(means, top.kind, Math.max(CPU_BOUND - 5, top.value - 10));
  const label = KIND_LABEL[top.kind];
  return verdict(`${top.kind}-cpu`, `${label} threads on ${nodesWord(ids)} averaged ${pct(meanOf(means, ids, top.kind))} busy: the data nodes are CPU-bound in ${label}`, lines);
}

/**
 * What limited throughput over a stretch's steady seconds, from the data nodes' figures then: a hard limit first
 * (redo log or its disk, then send buffers), then a saturated thread kind, then disk data reads; every thread kind
 * well under saturation while throughput held means the limit is outside the data nodes.
 */
export function bottleneckOf(at: readonly number[], throughput: readonly (number | null)[], inside: InsideWindow): Bottleneck {
  return bottleneckFrom(at, throughput, inside.nodes.size > 0, (times) => steadyMeans(inside, times));
}

/**
 * `bottleneckOf` with the inside figures' means over the seconds it reads given by `meansAt` (called once, with
 * those seconds' times): a run summarised as it streams by keeps those means instead of every node's seconds.
 * `known`: the SQL source ever reported a data node.
 */
export function bottleneckFrom(at: readonly number[], throughput: readonly (number | null)[], known: boolean, meansAt: (times: readonly number[]) => Means): Bottleneck {
  if (!known) {
    return verdict('unknown', "No figures from inside the data nodes: with an SQL node's ndbinfo (--sql mysql://USER@HOST) ndbtop reads their threads, send buffers and redo log and names what limits throughput", []);
  }
  // A stretch too short or too uneven to hold steady (a 30 s phase seen in four samples) is read at its seconds
  // near its peak, and says so.
  let steady = steadyIndices(throughput).map((i) => at[i] as number);
  let basis = `steady seconds: ${steady.length} of ${at.length}`;
  if (steady.length === 0) {
    const peak = Math.max(0, ...throughput.map((v) => v ?? 0));
    steady = at.filter((_, i) => peak > 0 && (throughput[i] ?? 0) >= peak * NEAR_PEAK);
    basis = `throughput never held within ±10 % for 3 s: read from the ${steady.length} of ${at.length} seconds within 20 % of its peak`;
  }
  if (steady.length === 0) return verdict('unknown', 'No throughput in this stretch: nothing to read a limit from', []);
  const means = meansAt(steady);
  if (means.size === 0) return verdict('unknown', 'The SQL source gave no figures while there was throughput: nothing to read a limit from', [basis]);
  const lines = [basis, ...threadAndTransport(means), ...storage(means)];

  const redoIds = [...new Set([...nodesAtLeast(means, 'redoFill', REDO_FULL), ...nodesAtLeast(means, 'ioLag', IO_LAG_PER_SEC)])];
  if (redoIds.length > 0) {
    const fill = highest(means, 'redoFill');
    return verdict('redo-io', `The redo log on ${nodesWord(redoIds)} was up to ${pct(fill?.value ?? 0)} full with writes slowed for I/O lag: writes wait on the redo log's disk`, lines);
  }
  const bufIds = [...new Set([...nodesAtLeast(means, 'sendBuffer', SEND_BUFFER_FULL), ...nodesAtLeast(means, 'overloaded', OVERLOADED_SHARE)])];
  if (bufIds.length > 0) {
    const over = highest(means, 'overloaded');
    return verdict('send-buffer', `Transporters of ${nodesWord(bufIds)} were overloaded or slowed down ${pct((over?.value ?? 0) * 100)} of the steady time: the data nodes wait on their send buffers`, lines);
  }
  const cpu = cpuBound(means, lines);
  if (cpu) return cpu;
  const missed = [...means].filter(([, m]) => m.diskHit !== undefined && m.diskHit < DISK_HIT_LOW).map(([id]) => id);
  if (missed.length > 0) {
    return verdict('disk', `The disk page buffer on ${nodesWord(missed)} served only ${pct(meanOf(means, missed, 'diskHit') * 100)} of page requests without waiting: disk data reads wait on the disk`, lines);
  }
  const busiest = THREAD_KINDS.map((k) => ({ k, h: highest(means, k) })).filter((x): x is { k: ThreadKindName; h: Extreme } => x.h !== null);
  const top = busiest.reduce<(typeof busiest)[number] | null>((t, x) => (!t || x.h.value > t.h.value ? x : t), null);
  if (!top) return verdict('unknown', 'The SQL source gave no thread figures during the steady part: nothing to read a limit from', lines);
  if (top.h.value < ROOM_TO_SPARE) {
    const under = Math.ceil((top.h.value + 0.5) / 10) * 10;
    return verdict('outside-data-nodes', `Data-node threads stayed under ${under} % busy while throughput was flat (busiest: ${KIND_LABEL[top.k]} on node ${top.h.nodeId}, ${pct(top.h.value)}): the limit is outside the data nodes (SQL/API nodes, clients or network)`, lines);
  }
  return verdict('unknown', `No single limit inside the data nodes: the busiest, ${KIND_LABEL[top.k]} threads on node ${top.h.nodeId}, averaged ${pct(top.h.value)} busy, short of saturation, with send buffers and redo log clear`, lines);
}
