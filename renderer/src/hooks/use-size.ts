import { useEffect, useState, type RefObject } from 'react';

export interface Size {
  width: number;
  height: number;
}

/**
 * Inner size of an element in CSS pixels, following resizes: charts decimate to it, the grid fits itself to it. 0 × 0
 * until the first report: the size is read only in the ResizeObserver's callback, after the frame's own layout, never
 * during React's commit, where reading it would make the browser lay out the whole page once more.
 */
export function useSize(ref: RefObject<HTMLElement | null>): Size {
  const [size, setSize] = useState<Size>({ width: 0, height: 0 });
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setSize((prev) => (prev.width === el.clientWidth && prev.height === el.clientHeight ? prev : { width: el.clientWidth, height: el.clientHeight })));
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return size;
}
