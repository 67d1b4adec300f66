import { useEffect, useState } from 'react';

/**
 * How many of `total` items to draw: `step` at first, `step` more after each painted frame until all are there.
 * A heavy list (144 tiles laid out and measured) mounts as a few short tasks instead of one long one; it only
 * grows, so later changes to the list are drawn whole at once.
 */
export function useGrowingLimit(total: number, step: number): number {
  const [limit, setLimit] = useState(step);
  const done = limit >= total;
  useEffect(() => {
    if (done) return;
    // rAF runs before the frame is painted; the timeout after it runs once it has been.
    let timer: ReturnType<typeof setTimeout> | null = null;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setLimit((n) => n + step), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      if (timer !== null) clearTimeout(timer);
    };
  }, [done, limit, step]);
  return limit;
}
