import { useEffect, useState } from 'react';
import { afterNextPaint } from './after-next-paint.js';

/**
 * How many of `total` items to draw: `step` at first, `step` more after each painted frame until all are there.
 * A heavy list (144 tiles laid out and measured) mounts as a few short tasks instead of one long one; it only
 * grows, so later changes to the list are drawn whole at once.
 */
export function useGrowingLimit(total: number, step: number): number {
  const [limit, setLimit] = useState(step);
  const done = limit >= total;
  useEffect(() => (done ? undefined : afterNextPaint(() => setLimit((n) => n + step))), [done, limit, step]);
  return limit;
}
