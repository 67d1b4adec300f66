/** Calls `then` once the next frame has been painted; returns a cancel function (for an effect's clean-up). */
export function afterNextPaint(then: () => void): () => void {
  // rAF runs before the frame is painted; the timeout after it runs once it has been.
  let timer: ReturnType<typeof setTimeout> | null = null;
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(then, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    if (timer !== null) clearTimeout(timer);
  };
}
