import { useEffect, useState, type ReactNode } from 'react';

/**
 * False until a frame has been painted after the caller mounted: heavy work started then gets a task of its own
 * instead of holding that frame back.
 */
export function useAfterFirstPaint(): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    // rAF runs before the frame is painted; the timeout after it runs once it has been.
    let timer: ReturnType<typeof setTimeout> | null = null;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setReady(true), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      if (timer !== null) clearTimeout(timer);
    };
  }, []);
  return ready;
}

/**
 * Renders its children one frame after it mounts: a view switch paints its frame (headings, chart, headline) at once,
 * and a heavy part (144 tiles, 144 sparklines) follows in its own task instead of holding that frame back.
 */
export function AfterFirstPaint({ children, placeholder = null }: { children: ReactNode; placeholder?: ReactNode }) {
  return <>{useAfterFirstPaint() ? children : placeholder}</>;
}
