import { replaceControlChars } from '../../../native-mgm/control-chars.js';

const hex = (c: string, digits: number): string => c.charCodeAt(0).toString(16).padStart(digits, '0');

/**
 * Text for a terminal: every control character but LF and TAB is shown as `\xHH`, so bytes a server sent (node
 * fields, event text, error details) cannot move the cursor, retitle the window or run OSC sequences. Every
 * human-readable output of the CLI goes through this (`show`, `events`, `config`, warnings and errors).
 */
export function terminalText(text: string): string {
  return replaceControlChars(text, (c) => (c === '\n' || c === '\t' ? c : `\\x${hex(c, 2)}`));
}

/**
 * JSON for a terminal or a pipe: JSON.stringify escapes C0 controls inside strings but leaves DEL and C1 raw;
 * escaping those as `\u00XX` keeps the data identical for any JSON reader.
 */
export function terminalJson(value: unknown, indent?: number): string {
  return replaceControlChars(JSON.stringify(value, null, indent), (c) => (c === '\n' ? c : `\\u${hex(c, 4)}`));
}

/** Writes human-readable text; see terminalText. */
export function printText(stream: NodeJS.WritableStream, text: string): boolean {
  return stream.write(terminalText(text));
}
