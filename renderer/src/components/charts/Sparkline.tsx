/** A line over the last samples, drawn as one SVG path: cheap enough for a hundred cards. */
export function Sparkline({ values, width, height, label }: { values: readonly number[]; width: number; height: number; label: string }) {
  const finite = values.filter(Number.isFinite);
  if (finite.length < 2) return <svg className="sparkline" width={width} height={height} role="img" aria-label={`${label}: no data yet`} />;
  const max = Math.max(...finite, 1);
  const step = width / (values.length - 1);
  let d = '';
  let pen = false;
  values.forEach((v, i) => {
    if (!Number.isFinite(v)) {
      pen = false;
      return;
    }
    const x = (i * step).toFixed(1);
    const y = (height - 1 - (v / max) * (height - 2)).toFixed(1);
    d += `${pen ? 'L' : 'M'}${x},${y}`;
    pen = true;
  });
  return (
    <svg className="sparkline" width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-label={label}>
      <path d={d} fill="none" strokeWidth={1.5} />
    </svg>
  );
}
