import { sparkGeometry } from '../../view-model/charts/spark-geometry.js';

/** A line over the last samples, drawn as one SVG path: cheap enough for a hundred cards. */
export function Sparkline({ values, width, height, label }: { values: readonly number[]; width: number; height: number; label: string }) {
  const geometry = sparkGeometry(values, width, height);
  if (!geometry) return <svg className="sparkline" width={width} height={height} role="img" aria-label={`${label}: no data yet`} />;
  const d = geometry.runs.map((run) => run.map((n, i) => `${i === 0 ? 'M' : i % 2 === 0 ? 'L' : ','}${n.toFixed(1)}`).join('')).join('');
  return (
    <svg className="sparkline" width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-label={label}>
      <path d={d} fill="none" strokeWidth={1.5} />
    </svg>
  );
}
