/** A reply with a header line, `key: value` lines and the closing empty line (spec §1.3). */
export function reply(header: string, pairs: ReadonlyArray<readonly [string, string | number]> = []): string {
  return `${header}\n${pairs.map(([k, v]) => `${k}: ${v}\n`).join('')}\n`;
}

export function resultReply(header: string, result: string | number): string {
  return reply(header, [['result', result]]);
}
