/**
 * A sparkline's geometry, shared by the SVG sparkline on cards and the canvas small multiples: points spread evenly
 * over the width, scaled so the highest value (at least 1) touches the top; a missing value (NaN) breaks the line.
 */
export interface SparkGeometry {
  /** Runs of [x, y] pairs, flat, one per unbroken stretch of the line. */
  runs: number[][];
  /** Horizontal distance between two samples. */
  step: number;
  max: number;
}

export function sparkGeometry(values: ArrayLike<number>, width: number, height: number): SparkGeometry | null {
  let max = 1;
  let finite = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i] ?? NaN;
    if (!Number.isFinite(v)) continue;
    finite += 1;
    if (v > max) max = v;
  }
  if (finite < 2) return null;
  const step = width / (values.length - 1);
  const runs: number[][] = [];
  let run: number[] | null = null;
  for (let i = 0; i < values.length; i++) {
    const v = values[i] ?? NaN;
    if (!Number.isFinite(v)) {
      run = null;
      continue;
    }
    if (!run) runs.push((run = []));
    run.push(i * step, height - 1 - (v / max) * (height - 2));
  }
  return { runs, step, max };
}

/** The sample under a horizontal position (nearest by time), or null off the line. */
export function sampleAt(geometry: SparkGeometry, count: number, x: number): number | null {
  if (count === 0) return null;
  const i = Math.round(x / geometry.step);
  return i < 0 || i >= count ? null : i;
}
