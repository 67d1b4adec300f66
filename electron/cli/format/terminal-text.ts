import { visibleText } from '../../contract/page-safe/outside-text.js';

/** Writes human-readable text to a terminal or a pipe under the one rule for outside text (outside-text.ts). */
export function printText(stream: NodeJS.WritableStream, text: string): boolean {
  return stream.write(visibleText(text));
}
