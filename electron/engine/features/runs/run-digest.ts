import { z } from 'zod';
import { AlertSchema, EventViewSchema, type Alert, type EventView } from '../../../contract/schemas/events.js';
import { IncidentSchema, type Incident } from '../../../contract/schemas/incidents.js';
import type { RunFigure } from '../../../contract/schemas/runs.js';
import { RUN_FIGURES } from '../../../contract/page-safe/vocabulary.js';
import type { InsideValues } from '../../facts/ndbinfo/inside-history.js';
import type { StreamTick } from './run-stream.js';

/**
 * The digest line's version. A reader takes the versions it knows and plays the file for the rest, so a later
 * writer may add fields (a reader ignores those it does not know) or, for a change in meaning, a new version.
 */
export const DIGEST_VERSION = 1;

/** One history tick as a digest carries it: what `RunStream` reads of it, nothing else. */
export interface DigestTick {
  at: number;
  cluster: Partial<Record<RunFigure, number | null>>;
  /** Each data node's transactions/s: [nodeId, value]. */
  tx: Array<[number, number | null]>;
  /** The SQL source's figures per data node (absent without one). */
  inside?: Array<[number, InsideValues]>;
}

/** What a run's tracker heard of an alert, in order. */
export type DigestAlert = { op: 'raised' | 'resolved' | 'revised'; alert: Alert };

/**
 * What a report needs of a stretch of a recording, folded by the live engine as it went (`DigestFold`) and
 * written in a member of its own (flag DIGEST) before every keyframe and when the recording closes, so
 * `ndbtop report` reads these instead of playing every poll (`digest-report.ts`). Each covers the ticks and
 * changes since the cluster's previous digest.
 *
 *   {"c","kind":"digest","t","v":1,"since":<the previous digest's t, or null>,"through":<the tracker's time when taken>,"final"?:true,
 *    "ticks":[DigestTick],"events":[EventView of WARNING or worse],"alerts":[DigestAlert],
 *    "outages":[{"nodeId","up","at"}],"dataNodes":[[nodeId, nodeGroup]],"incidents"?:[Incident]}
 */
export interface DigestLine {
  c: string;
  kind: 'digest';
  t: number;
  v: number;
  /** The `t` of this tracker's previous digest; null for its first (a recording, or a process appending to it, began). */
  since: number | null;
  /** Everything the tracker was fed up to this time is in this digest or an earlier one. */
  through: number;
  /** Taken as the recording closed: nothing the tracker derived is left out. */
  final?: true;
  ticks: DigestTick[];
  events: EventView[];
  alerts: DigestAlert[];
  outages: Array<{ nodeId: number; up: boolean; at: number }>;
  /** The data nodes and their node groups as known when taken. */
  dataNodes: Array<[number, number | null]>;
  /** Incidents new or changed since the previous digest, whole (a reader keeps the latest of each id). */
  incidents?: Incident[];
}

const WARNING_OR_WORSE = new Set(['WARNING', 'ERROR', 'CRITICAL', 'ALERT']);

/** A digest's few whole objects (its changes), checked as the contract checks them; its ticks are checked by hand below. */
const ChangesSchema = z.object({
  c: z.string(),
  kind: z.literal('digest'),
  t: z.number(),
  v: z.number(),
  since: z.number().nullable(),
  through: z.number(),
  final: z.literal(true).optional(),
  events: z.array(EventViewSchema),
  alerts: z.array(z.object({ op: z.enum(['raised', 'resolved', 'revised']), alert: AlertSchema })),
  outages: z.array(z.object({ nodeId: z.number(), up: z.boolean(), at: z.number() })),
  dataNodes: z.array(z.tuple([z.number(), z.number().nullable()])),
  incidents: z.array(IncidentSchema).optional(),
});

const isFigure = (v: unknown): boolean => v === null || typeof v === 'number';
const isValues = (o: unknown): boolean => typeof o === 'object' && o !== null && !Array.isArray(o) && Object.values(o).every(isFigure);
const isPair = (p: unknown, value: (v: unknown) => boolean): boolean => Array.isArray(p) && p.length === 2 && typeof p[0] === 'number' && value(p[1]);

/** A night holds ~30,000 ticks of every data node: checked without a schema library's cost per value. */
function isTick(t: unknown): t is DigestTick {
  if (typeof t !== 'object' || t === null) return false;
  const o = t as Record<string, unknown>;
  return (
    typeof o.at === 'number' &&
    isValues(o.cluster) &&
    Array.isArray(o.tx) &&
    o.tx.every((p) => isPair(p, isFigure)) &&
    (o.inside === undefined || (Array.isArray(o.inside) && o.inside.every((p) => isPair(p, isValues))))
  );
}

/**
 * A digest line read from a file, checked: recordings are shared, so a digest is outside input like any line.
 * Throws on one that is not a digest of this shape (the report then plays the file).
 */
export function checkedDigest(value: unknown): DigestLine {
  const changes = ChangesSchema.parse(value);
  const ticks = (value as { ticks?: unknown }).ticks;
  if (!Array.isArray(ticks) || !ticks.every(isTick)) throw new Error(`digest of ${changes.c} at ${changes.t}: a tick is not one`);
  return { ...changes, ticks } as DigestLine;
}

/** A digest's tick back as the tick `RunStream` was (or would have been) given live. */
export function streamTick(t: DigestTick): StreamTick {
  return { at: t.at, cluster: t.cluster, transactions: new Map(t.tx), inside: new Map(t.inside ?? []) };
}

/** One cluster's digest in the making: the live tracker's ticks and changes since the last one taken. */
export class DigestFold {
  private ticks: DigestTick[] = [];
  private events: EventView[] = [];
  private alerts: DigestAlert[] = [];
  private outages: DigestLine['outages'] = [];
  private since: number | null = null;
  /** Each incident as last written, to write only what changed. */
  private readonly written = new Map<string, string>();

  tick(tick: StreamTick): void {
    const cluster: DigestTick['cluster'] = {};
    for (const f of RUN_FIGURES) cluster[f] = tick.cluster[f] ?? null;
    this.ticks.push({ at: tick.at, cluster, tx: [...tick.transactions], ...(tick.inside.size > 0 ? { inside: [...tick.inside] } : {}) });
  }

  event(view: EventView): void {
    if (view.severity !== null && WARNING_OR_WORSE.has(view.severity)) this.events.push(view);
  }

  alert(op: DigestAlert['op'], alert: Alert): void {
    this.alerts.push({ op, alert: { ...alert } });
  }

  outage(nodeId: number, up: boolean, at: number): void {
    this.outages.push({ nodeId, up, at });
  }

  take(c: string, t: number, through: number, dataNodes: DigestLine['dataNodes'], final: boolean, incidents: readonly Incident[]): DigestLine {
    const changed = incidents.filter((i) => {
      const json = JSON.stringify(i);
      if (this.written.get(i.id) === json) return false;
      this.written.set(i.id, json);
      return true;
    });
    const line: DigestLine = { c, kind: 'digest', t, v: DIGEST_VERSION, since: this.since, through, ...(final ? { final: true as const } : {}), ticks: this.ticks, events: this.events, alerts: this.alerts, outages: this.outages, dataNodes, ...(changed.length > 0 ? { incidents: changed } : {}) };
    this.ticks = [];
    this.events = [];
    this.alerts = [];
    this.outages = [];
    this.since = t;
    return line;
  }
}
