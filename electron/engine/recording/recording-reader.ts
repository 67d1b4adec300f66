import { LineSplitter } from './line-splitter.js';
import { RECORDING_FORMAT, RECORDING_VERSION, type RecordingHeader, type RecordingLine } from './recording-format.js';
import { recordingBytes, type SourceEnd, type SourceOptions } from './recording-source.js';
import { upgradeLine } from './recording-upgrade.js';

export interface RecordingProblem {
  /** Line number counted from where reading started (the file's first line unless it seeked). */
  line: number;
  error: string;
}

/** What could not be read; only the first MAX_PROBLEMS are kept, `unreadable` counts them all. */
export interface ReadProblems {
  problems: RecordingProblem[];
  unreadable: number;
}

export interface Recording extends ReadProblems {
  header: RecordingHeader;
  lines: RecordingLine[];
}

export interface RecordingStream extends ReadProblems {
  header: RecordingHeader;
  /** The lines in order, read as they are consumed; `problems` fills as they go. */
  lines: AsyncGenerator<RecordingLine>;
}

export class RecordingError extends Error {
  readonly code = 'BAD_RECORDING';
}

const MAX_PROBLEMS = 100;

/**
 * A line the recorder wrote for readers other than replay (pushed snapshots and deltas, digests), told by its
 * opening bytes: the recorder writes `c` then `kind` first, and a quote inside a JSON string is escaped, so this
 * cannot match a line of another kind. Outputs are over half of a file's text, so a replay leaves them unparsed.
 */
const NOT_REPLAYED = /^\{"c":"(?:[^"\\]|\\.)*","kind":"(?:snapshot|delta|digest)"/;

export interface OpenOptions extends SourceOptions {
  /** Skip the lines a replay ignores without parsing them (`NOT_REPLAYED`). */
  inputsOnly?: boolean;
}

function parseHeader(text: string | undefined, file: string): RecordingHeader {
  let header: Partial<RecordingHeader>;
  try {
    header = JSON.parse(text ?? '') as Partial<RecordingHeader>;
  } catch {
    throw new RecordingError(`${file} is not an ndbtop recording (first line is not JSON)`);
  }
  if (header?.format !== RECORDING_FORMAT) throw new RecordingError(`${file} is not an ndbtop recording (format ${JSON.stringify(header?.format)})`);
  if (header.version !== RECORDING_VERSION) throw new RecordingError(`${file}: recording format version ${String(header.version)} is not supported (this ndbtop reads ${RECORDING_VERSION})`);
  return header as RecordingHeader;
}

function isLine(v: unknown): v is RecordingLine {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return typeof o.c === 'string' && typeof o.kind === 'string' && typeof o.t === 'number';
}

function note(into: ReadProblems, problem: RecordingProblem): void {
  into.unreadable += 1;
  if (into.problems.length < MAX_PROBLEMS) into.problems.push(problem);
}

/** Parsed lines of the bytes from `options.from`; the header, when reading from the start, is the first. */
async function* rows(file: string, options: OpenOptions, into: ReadProblems): AsyncGenerator<{ text: string } | { line: RecordingLine }> {
  const splitter = new LineSplitter();
  const end: SourceEnd = { error: null };
  let n = 0;
  const headerFirst = (options.from ?? 0) === 0;
  for await (const chunk of recordingBytes(file, options, end)) {
    for (const piece of splitter.push(chunk)) {
      n += 1;
      if ('tooLong' in piece) {
        note(into, { line: n, error: `line of ${piece.tooLong} bytes is too long for a recording line` });
        continue;
      }
      if (n === 1 && headerFirst) {
        yield { text: piece.text };
        continue;
      }
      // Not an object's text: told without JSON.parse, whose errors cost microseconds each (a bomb of short lines).
      const text = piece.text.trim();
      if (options.inputsOnly && NOT_REPLAYED.test(text)) continue;
      if (text[0] !== '{' || text[text.length - 1] !== '}') {
        note(into, { line: n, error: `not a recording line: "${text.length > 40 ? `${text.slice(0, 40)}…` : text}"` });
        continue;
      }
      try {
        const value: unknown = JSON.parse(text);
        if (!isLine(value)) throw new Error('not a recording line');
        yield { line: upgradeLine(value) };
      } catch (err) {
        note(into, { line: n, error: err instanceof Error ? err.message : String(err) });
      }
    }
  }
  if (splitter.tail() > 0) note(into, { line: n + 1, error: `torn last line (${splitter.tail()} bytes without their end)` });
  if (end.error) note(into, { line: n + 1, error: end.error });
}

/** The header line of a recording (the file's first line), reading no more than it needs. */
export async function readHeader(file: string): Promise<RecordingHeader> {
  const first = rows(file, { chunkBytes: 16 * 1024 }, { problems: [], unreadable: 0 });
  try {
    const row = (await first.next()).value;
    return parseHeader(row && 'text' in row ? row.text : undefined, file);
  } finally {
    await first.return(undefined);
  }
}

/**
 * A recording as a stream of lines, plain JSON lines or compressed (gzip members, see recording-member.ts),
 * from its start or from a member's offset (`options.from`). Lines that do not parse are reported in
 * `problems`, never thrown; a file that is not a recording at all throws RecordingError before any line.
 */
export async function openRecording(file: string, options: OpenOptions = {}): Promise<RecordingStream> {
  const state: ReadProblems = { problems: [], unreadable: 0 };
  const source = rows(file, options, state);
  let header: RecordingHeader;
  if ((options.from ?? 0) === 0) {
    const first = (await source.next()).value;
    try {
      header = parseHeader(first && 'text' in first ? first.text : undefined, file);
    } catch (err) {
      await source.return(undefined);
      throw err;
    }
  } else header = await readHeader(file);
  async function* lines(): AsyncGenerator<RecordingLine> {
    for await (const row of source) if ('line' in row) yield row.line;
  }
  return Object.assign(state, { header, lines: lines() });
}

/** A whole recording in memory: for small files (tests, tools); anything that may be large streams instead. */
export async function readRecording(file: string): Promise<Recording> {
  const stream = await openRecording(file);
  const lines: RecordingLine[] = [];
  for await (const line of stream.lines) lines.push(line);
  return { header: stream.header, lines, problems: stream.problems, unreadable: stream.unreadable };
}
