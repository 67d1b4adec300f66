import { createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { gunzipSync, gzip as gzipCallback } from 'node:zlib';
import { memberInfo, memberOf, RUN_MARKS } from '../electron/engine/recording/recording-member.js';

const gzip = promisify(gzipCallback);
const DAY_MS = 86_400_000;
/** Members compressed at once (zlib's thread pool), written in order. */
const IN_FLIGHT = 4;

/** A line as text with its times cut out: `parts[0] + (times[0] + shift) + parts[1] + …`. */
interface Template {
  parts: string[];
  times: number[];
}

interface MemberTemplate {
  flags: number;
  t: number;
  lines: Template[];
  /** The member holds the file's header or a cluster line: written in the first round only. */
  firstRoundOnly: boolean;
}

const MARK = /"\u00a7T(-?\d+)\u00a7"/g;

/**
 * Every number within a day of the sample's span is a time (the epoch milliseconds of a line, an event, a report,
 * a start): each becomes a mark, so a round moves all of them, not only the line's own `t`.
 */
function template(row: string, near: [number, number]): Template {
  const text = JSON.stringify(JSON.parse(row), (_key, value: unknown) => (typeof value === 'number' && value > near[0] && value < near[1] ? `\u00a7T${value}\u00a7` : value));
  const parts: string[] = [];
  const times: number[] = [];
  let at = 0;
  for (const m of text.matchAll(MARK)) {
    parts.push(text.slice(at, m.index));
    times.push(Number(m[1]));
    at = m.index + m[0].length;
  }
  parts.push(text.slice(at));
  return { parts, times };
}

function render(line: Template, shift: number): string {
  let out = line.parts[0] ?? '';
  for (let i = 0; i < line.times.length; i++) out += String((line.times[i] as number) + shift) + line.parts[i + 1];
  return out;
}

/** The members of a recording the recorder wrote (the sample), each line a template. */
async function memberTemplates(sampleFile: string): Promise<{ members: MemberTemplate[]; firstT: number; lastT: number; c: string }> {
  const bytes = await readFile(sampleFile);
  const raw: { flags: number; t: number; rows: string[] }[] = [];
  for (let offset = 0; offset < bytes.length; ) {
    const info = memberInfo(bytes.subarray(offset));
    if (!info) break;
    const rows = gunzipSync(bytes.subarray(offset, offset + info.length)).toString('utf8').split('\n').filter((r) => r.length > 0);
    raw.push({ flags: info.flags, t: info.t, rows });
    offset += info.length;
  }
  const firstT = raw[0]?.t ?? 0;
  const lastT = raw.at(-1)?.t ?? firstT;
  const near: [number, number] = [firstT - DAY_MS, lastT + DAY_MS];
  let c = 'c';
  const members = raw.map(({ flags, t, rows }) => {
    const kinds = rows.map((r) => (JSON.parse(r) as { kind?: string; c?: string }));
    c = kinds.find((k) => k.kind === 'cluster')?.c ?? c;
    const firstRoundOnly = kinds.some((k) => k.kind === undefined || k.kind === 'cluster');
    return { flags, t, lines: rows.map((r) => template(r, near)), firstRoundOnly };
  });
  return { members, firstT, lastT, c };
}

/**
 * A recording of `bytes` on disk (or `spanMs` of recorded time, whichever comes first) made from a recorder's sample: its members again and again, every time in them
 * (a line's, an event's, a report's) moved on by the sample's span each round, one run over the whole of it.
 * Compressed at level 1 on zlib's threads, a few members at once: the sample's lines are turned into templates
 * once, so a round costs rendering numbers into text and deflating it.
 */
export async function bigRecording(file: string, sampleFile: string, bytes: number, spanMs = Infinity): Promise<{ firstT: number; lastT: number }> {
  const { members, firstT, lastT: sampleLastT, c } = await memberTemplates(sampleFile);
  const period = sampleLastT - firstT + 1000;
  const out = createWriteStream(file);
  const write = (b: Buffer): Promise<void> => (out.write(b) ? Promise.resolve() : new Promise((r) => out.once('drain', () => r())));
  const queue: Promise<Buffer>[] = [];
  const add = async (text: string, flags: number, t: number): Promise<void> => {
    queue.push(gzip(text, { level: 1 }).then((gz) => memberOf(gz, flags, t)));
    if (queue.length >= IN_FLIGHT) await write(await (queue.shift() as Promise<Buffer>));
  };
  let written = 0;
  let lastT = firstT;
  let started = false;
  for (let round = 0; written + out.writableLength + queue.length * 65_536 < bytes && lastT - firstT < spanMs; round++) {
    const shift = round * period;
    for (const m of members) {
      if (round > 0 && m.firstRoundOnly) continue;
      const t = m.t + shift;
      // The run starts with the first member after the cluster is known.
      if (!started && !m.firstRoundOnly) {
        await add(`${JSON.stringify({ c, kind: 'run', t, op: 'start', runId: 'run-1', name: 'whole', tags: {} })}\n`, RUN_MARKS, t);
        started = true;
      }
      const rows = m.lines.map((l) => render(l, shift));
      await add(`${rows.join('\n')}\n`, m.flags, t);
      // The stop goes after the last line's time, not its member's (the time of its first line): a report plays a
      // run until its stop, and would leave the last member's later lines, and the stop, unread.
      lastT = Math.max(lastT, (JSON.parse(rows.at(-1) ?? '{}') as { t?: number }).t ?? t);
    }
    written = out.bytesWritten;
  }
  await add(`${JSON.stringify({ c, kind: 'run', t: lastT, op: 'stop', runId: 'run-1' })}\n`, RUN_MARKS, lastT);
  for (const pending of queue.splice(0)) await write(await pending);
  await new Promise<void>((r) => out.end(() => r()));
  return { firstT, lastT };
}
