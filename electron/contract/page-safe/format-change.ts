/** 0.74 → "−26 %": a ratio B/A as the change from A, as the report and the Runs view print it. */
export function formatChange(ratio: number | null): string {
  if (ratio === null || !Number.isFinite(ratio)) return 'n/a';
  const pct = Math.round((ratio - 1) * 100);
  return `${pct > 0 ? '+' : pct < 0 ? '−' : '±'}${Math.abs(pct)} %`;
}
