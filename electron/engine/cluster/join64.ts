/** 64-bit counters travel as two unsigned words (spec §6.6.9): value = hi · 2^32 + lo. */
export function join64(hi: number | undefined, lo: number | undefined): number {
  return (hi ?? 0) * 2 ** 32 + (lo ?? 0);
}
