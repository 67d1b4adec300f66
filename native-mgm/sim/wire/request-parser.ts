import { COMMANDS, type CommandSpec } from './command-table.js';

/** Argument values after parsing: integers as the server's unsigned 32-bit reading, strings as sent. */
export type Args = ReadonlyMap<string, number | string>;

export type ParseResult =
  | { kind: 'request'; command: CommandSpec; args: Args }
  | { kind: 'error'; message: ParserErrorMessage; token: string }
  /**
   * A string argument given twice: the server's parser fails without a status of its own and acts on the previous
   * request's, which after a successful one aborts ndb_mgmd (spec §14.4). The session is closed instead, the
   * nearest safe imitation of the crash.
   */
  | { kind: 'fatal'; reason: string };

/**
 * What the server's parser answers (spec §1.4, §14.4). `Invalid arg. format` is not among them: its check can
 * never be true, so a line with neither `:` nor `=` is an `Unknown argument`.
 */
export type ParserErrorMessage = 'Unknown command' | 'Unknown argument' | 'Type mismatch' | 'Argument given twice' | 'Missing arg.';

/** The token of an error when a timeout or an over-long line cut the request (a null token, spec §14.2). */
export const NULL_TOKEN = '<NULL>';

/** Trims spaces and tabs, the only blanks the server's parser knows (not CR). */
export const trimSpaceTab = (text: string): string => text.replace(/^[ \t]+|[ \t]+$/g, '');

function stripQuotes(text: string): string {
  return text.length >= 2 && text.startsWith('"') && text.endsWith('"') ? text.slice(1, -1) : text;
}

/**
 * C `sscanf("%u")`: leading white space is skipped (a quoted `" 5"` keeps its space past the trimming), leading
 * digits count, trailing junk is ignored, a leading minus wraps modulo 2^32.
 */
export function scanUnsigned(text: string): number | null {
  const m = /^[ \t\n\v\f\r]*([+-]?\d+)/.exec(text);
  if (!m?.[1]) return null;
  return Number(BigInt.asUintN(32, BigInt(m[1])));
}

/**
 * The request parser (spec §1.2, §1.4), fed one line at a time (LF removed, and a CR before it where the reader
 * removes it). It keeps the server's quirks: after an argument error it does not skip the rest of the request, so
 * every remaining line is read as a new command; empty lines between requests are ignored; only spaces and tabs
 * are blanks, so a line that is a lone CR is neither empty nor an argument.
 */
export class RequestParser {
  private command: CommandSpec | null = null;
  private args = new Map<string, number | string>();

  /** `serverVersion`: the packed version of the server whose command table this is. */
  constructor(private readonly serverVersion: number) {}

  /** The command whose arguments are being read, for `get session`/`list sessions`. */
  get pending(): CommandSpec | null {
    return this.command;
  }

  /**
   * `line` holds one char per byte, so an error token echoes exactly the bytes received; string arguments
   * reach the handlers decoded as UTF-8.
   */
  feed(line: string): ParseResult | null {
    if (this.command === null) return this.commandLine(line);
    return this.argumentLine(this.command, line);
  }

  private commandLine(line: string): ParseResult | null {
    const text = stripQuotes(trimSpaceTab(line));
    if (text === '') return null;
    const command = COMMANDS.get(text);
    if (!command || (command.since ?? 0) > this.serverVersion) return { kind: 'error', message: 'Unknown command', token: text };
    this.command = command;
    this.args = new Map();
    return null;
  }

  private argumentLine(command: CommandSpec, line: string): ParseResult | null {
    if (trimSpaceTab(line) === '') {
      this.command = null;
      if (this.lacksMandatory(command)) {
        return { kind: 'error', message: 'Missing arg.', token: '\n' };
      }
      return { kind: 'request', command, args: this.args };
    }
    const sep = line.search(/[:=]/);
    // Without a separator the whole line is the name (spec §14.4). That it equals an argument's name is left
    // undefined there (the value would be stale buffer bytes); it is refused like any other unknown line.
    if (sep < 0) return this.fail('Unknown argument', trimSpaceTab(line));
    const name = trimSpaceTab(line.slice(0, sep));
    const raw = stripQuotes(trimSpaceTab(line.slice(sep + 1)));
    const spec = command.args.find((a) => a.name === name);
    if (!spec) return this.fail('Unknown argument', name);
    if (this.args.has(name)) {
      if (spec.type === 'int') return this.fail('Argument given twice', name);
      this.command = null;
      return { kind: 'fatal', reason: `string argument "${name}" of "${command.name}" given twice` };
    }
    if (spec.type === 'int') {
      const value = scanUnsigned(raw);
      if (value === null) return this.fail('Type mismatch', name);
      this.args.set(name, value);
    } else {
      this.args.set(name, Buffer.from(raw, 'latin1').toString('utf8'));
    }
    return null;
  }

  /**
   * The request being read was cut: its next line timed out or was too long (spec §14.2, §14.3). The command
   * runs with the arguments read so far, or, lacking a mandatory one, answers `Missing arg.` with a null token.
   */
  cut(): ParseResult | null {
    const command = this.command;
    if (command === null) return null;
    this.command = null;
    if (this.lacksMandatory(command)) return { kind: 'error', message: 'Missing arg.', token: NULL_TOKEN };
    return { kind: 'request', command, args: this.args };
  }

  private lacksMandatory(command: CommandSpec): boolean {
    return command.args.some((a) => a.mandatory && !this.args.has(a.name));
  }

  private fail(message: ParserErrorMessage, token: string): ParseResult {
    this.command = null;
    return { kind: 'error', message, token };
  }
}

/** A parser error reply: no header, `result: <message>, '<token>'` and the empty line. */
export function formatParserError(message: ParserErrorMessage, token: string): string {
  return `result: ${message}, '${token}'\n\n`;
}
