/**
 * Canvas draws spread over frames: at most DRAWS_PER_FRAME canvases a frame. 144 small multiples drawn at once (the
 * view's mount, each answer) were one long task, most of it the browser's own work for each canvas drawn in a
 * frame (producing and finalising its bitmap), which no faster drawing code removes; a few per frame it is short.
 * Up to the frame's budget a draw runs at once (a handful of canvases behave as if drawn directly); past it, it
 * waits for a coming frame, and only the newest draw of each canvas is kept.
 */
const DRAWS_PER_FRAME = 8;

const pending = new Map<object, () => void>();
let drawnThisFrame = 0;
let frame: number | null = null;

function nextFrame(): void {
  frame = null;
  drawnThisFrame = 0;
  for (const [key, draw] of pending) {
    if (drawnThisFrame >= DRAWS_PER_FRAME) break;
    pending.delete(key);
    drawnThisFrame += 1;
    draw();
  }
  // Wait for the next frame once this one spent its budget or drew something: the count starts afresh there.
  if (pending.size > 0 || drawnThisFrame > 0) frame = requestAnimationFrame(nextFrame);
}

/** Runs `draw` for the canvas `key` now or in a coming frame (a newer draw for the same key replaces it); returns a cancel. */
export function scheduleDraw(key: object, draw: () => void): () => void {
  frame ??= requestAnimationFrame(nextFrame);
  if (pending.size === 0 && drawnThisFrame < DRAWS_PER_FRAME) {
    drawnThisFrame += 1;
    draw();
    return () => undefined;
  }
  pending.set(key, draw);
  return () => {
    if (pending.get(key) === draw) pending.delete(key);
  };
}
