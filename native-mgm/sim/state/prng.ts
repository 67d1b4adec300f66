/** Seeded PRNG (mulberry32): the simulator's jitter must be repeatable for a given `seed`. */
export type Prng = () => number;

export function createPrng(seed: number): Prng {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An independent stream per purpose (node, instance, …), so one consumer's draws do not shift another's. */
export function derivePrng(seed: number, ...keys: number[]): Prng {
  let h = seed >>> 0;
  for (const k of keys) h = Math.imul(h ^ (k + 0x9e3779b9), 0x85ebca6b) >>> 0;
  return createPrng(h);
}

/** A factor in [1 - spread, 1 + spread]. */
export function jitter(prng: Prng, spread: number): number {
  return 1 + (prng() * 2 - 1) * spread;
}
