/** A line longer than this is not a recording line (a 255-node snapshot is well under 2 MiB); it is skipped. */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

export type SplitLine = { text: string } | { tooLong: number };

const NEWLINE = 0x0a;

/**
 * Lines of a byte stream, whatever the chunking: a line may span any number of chunks and a chunk may hold any
 * number of lines. Memory stays bounded by the longest line accepted: a longer one is dropped as it arrives and
 * reported by its length. A last line without its newline (torn by a kill) is not yielded; `tail()` says its size.
 */
export class LineSplitter {
  private parts: Buffer[] = [];
  private held = 0;
  private skipping = 0;

  constructor(private readonly maxLineBytes = MAX_LINE_BYTES) {}

  *push(chunk: Buffer): Generator<SplitLine> {
    let from = 0;
    for (let nl = chunk.indexOf(NEWLINE, from); nl !== -1; nl = chunk.indexOf(NEWLINE, from)) {
      // An empty line yields nothing: skipped here, a run of newlines costs no generator step per byte.
      if (nl > from || this.held > 0 || this.skipping > 0) yield* this.end(chunk.subarray(from, nl));
      from = nl + 1;
    }
    this.hold(chunk.subarray(from));
  }

  /** Bytes of an unfinished last line. */
  tail(): number {
    return this.skipping || this.held;
  }

  private hold(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.skipping > 0 || this.held + piece.length > this.maxLineBytes) {
      this.skipping = (this.skipping || this.held) + piece.length;
      this.parts = [];
      this.held = 0;
      return;
    }
    this.parts.push(piece);
    this.held += piece.length;
  }

  private *end(piece: Buffer): Generator<SplitLine> {
    this.hold(piece);
    if (this.skipping > 0) yield { tooLong: this.skipping };
    else if (this.held > 0) yield { text: (this.parts.length === 1 ? (this.parts[0] as Buffer) : Buffer.concat(this.parts, this.held)).toString('utf8') };
    this.parts = [];
    this.held = 0;
    this.skipping = 0;
  }
}
