import { readFile } from 'node:fs/promises';
import { RECORDING_FORMAT, RECORDING_VERSION, type RecordingHeader, type RecordingLine } from './recording-format.js';
import { upgradeLine } from './recording-upgrade.js';

export interface RecordingProblem {
  line: number;
  error: string;
}

export interface Recording {
  header: RecordingHeader;
  lines: RecordingLine[];
  /** Lines that did not parse: usually only a torn last line after a crash. */
  problems: RecordingProblem[];
}

export class RecordingError extends Error {
  readonly code = 'BAD_RECORDING';
}

function parseHeader(text: string | undefined, file: string): RecordingHeader {
  let header: Partial<RecordingHeader>;
  try {
    header = JSON.parse(text ?? '') as Partial<RecordingHeader>;
  } catch {
    throw new RecordingError(`${file} is not an ndbtop recording (first line is not JSON)`);
  }
  if (header.format !== RECORDING_FORMAT) throw new RecordingError(`${file} is not an ndbtop recording (format ${JSON.stringify(header.format)})`);
  if (header.version !== RECORDING_VERSION) throw new RecordingError(`${file}: recording format version ${String(header.version)} is not supported (this ndbtop reads ${RECORDING_VERSION})`);
  return header as RecordingHeader;
}

function isLine(v: unknown): v is RecordingLine {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return typeof o.c === 'string' && typeof o.kind === 'string' && typeof o.t === 'number';
}

/** Reads a whole recording, keeping every line that parses and reporting the ones that do not. */
export async function readRecording(file: string): Promise<Recording> {
  return parseRecording(await readFile(file, 'utf8'), file);
}

/** A recording's text (a file's content, or one the UI was given); `file` names it in errors. */
export function parseRecording(text: string, file: string): Recording {
  const rows = text.split('\n');
  if (rows.at(-1) === '') rows.pop();
  const header = parseHeader(rows[0], file);
  const lines: RecordingLine[] = [];
  const problems: RecordingProblem[] = [];
  rows.slice(1).forEach((row, i) => {
    try {
      const value: unknown = JSON.parse(row);
      if (!isLine(value)) throw new Error('not a recording line');
      lines.push(upgradeLine(value));
    } catch (err) {
      problems.push({ line: i + 2, error: err instanceof Error ? err.message : String(err) });
    }
  });
  return { header, lines, problems };
}
