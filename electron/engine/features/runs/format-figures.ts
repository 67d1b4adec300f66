/** 1234567 → "1.23M", 45600 → "45.6k": throughput as the Runs view, the alerts and the reports print it. */
export function formatRate(v: number): string {
  const abs = Math.abs(v);
  if (abs >= 1e6) return `${trim(v / 1e6)}M`;
  if (abs >= 1e3) return `${trim(v / 1e3)}k`;
  return trim(v);
}

function trim(v: number): string {
  const digits = Math.abs(v) >= 100 ? 0 : Math.abs(v) >= 10 ? 1 : 2;
  return v.toFixed(digits).replace(/\.0+$|(\.\d*?)0+$/, '$1');
}
