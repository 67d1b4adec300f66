/**
 * A leak on purpose (`npm run soak -- --leak-mb-per-minute 1`): JS arrays of doubles retained in this process,
 * where the engine runs, a slice every second. It proves the soak's judgement fails on a real leak of that size,
 * which noise from other processes on the machine must not hide nor fake.
 */
export function injectLeak(mbPerMinute: number): () => void {
  const kept: number[][] = [];
  // A packed array of doubles costs 8 bytes per element on V8's heap.
  const perSecond = Math.round((mbPerMinute * 2 ** 20) / 60 / 8);
  const timer = setInterval(() => kept.push(Array.from({ length: perSecond }, (_, i) => i + 0.5)), 1000);
  return () => {
    clearInterval(timer);
    kept.length = 0;
  };
}
