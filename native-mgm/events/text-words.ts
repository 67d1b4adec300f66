/**
 * Text events (InfoEvent, WarningEvent) carry their bytes packed into words in the reporting host's byte
 * order, little-endian on every platform NDB ships for, NUL-terminated (spec §6.3, §4.17); the bytes are text as
 * given, read as UTF-8 like every other text from the server.
 */
export function decodeTextWords(words: readonly number[]): string {
  const bytes = Buffer.alloc(words.length * 4);
  words.forEach((w, i) => bytes.writeUInt32LE(w >>> 0, i * 4));
  const nul = bytes.indexOf(0);
  return bytes.toString('utf8', 0, nul < 0 ? bytes.length : nul);
}

export function encodeTextWords(text: string): number[] {
  const raw = Buffer.from(text, 'utf8');
  const padded = Buffer.alloc(Math.floor(raw.length / 4) * 4 + 4);
  raw.copy(padded);
  return Array.from({ length: padded.length / 4 }, (_, i) => padded.readUInt32LE(i * 4));
}
