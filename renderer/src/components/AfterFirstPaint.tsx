import { useEffect, useState, type ReactNode } from 'react';
import { afterNextPaint } from '../hooks/after-next-paint.js';

/**
 * False until a frame has been painted after the caller mounted: heavy work started then gets a task of its own
 * instead of holding that frame back.
 */
export function useAfterFirstPaint(): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => afterNextPaint(() => setReady(true)), []);
  return ready;
}

/**
 * Renders its children one frame after it mounts: a view switch paints its frame (headings, chart, headline) at once,
 * and a heavy part (144 tiles, 144 sparklines) follows in its own task instead of holding that frame back.
 */
export function AfterFirstPaint({ children, placeholder = null }: { children: ReactNode; placeholder?: ReactNode }) {
  return <>{useAfterFirstPaint() ? children : placeholder}</>;
}
