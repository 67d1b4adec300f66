/**
 * Deep equality of values that cross the contract (plain objects, arrays, primitives): the engine uses it to
 * leave unchanged nodes out of a delta, the renderer to keep unchanged objects (and so skip re-renders).
 * No serialising, so comparing 255 unchanged nodes allocates nothing.
 */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  let count = 0;
  for (const k in ra) {
    if (!Object.hasOwn(rb, k) || !sameValue(ra[k], rb[k])) return false;
    count++;
  }
  for (const k in rb) if (Object.hasOwn(rb, k)) count--;
  return count === 0;
}
