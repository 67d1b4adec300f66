/**
 * The heatmap's colour scale: busy share 0 → 100 % from the theme's quiet end through teal and yellow to red, so a
 * saturated thread stands out on either theme. One table of stops feeds both the canvas (a 256-entry lookup by
 * cell byte) and the legend's CSS gradient.
 */
const HOT_STOPS: ReadonlyArray<[number, [number, number, number]]> = [
  [25, [38, 139, 150]],
  [50, [120, 190, 80]],
  [75, [242, 193, 46]],
  [90, [240, 118, 43]],
  [100, [215, 38, 61]],
];
const QUIET: Readonly<Record<string, [number, number, number]>> = { dark: [28, 44, 66], light: [196, 214, 232] };

function stops(theme: string): ReadonlyArray<[number, [number, number, number]]> {
  return [[0, QUIET[theme] ?? QUIET.dark!], ...HOT_STOPS];
}

function colourAt(percent: number, theme: string): [number, number, number] {
  const all = stops(theme);
  for (let i = 1; i < all.length; i++) {
    const [p1, c1] = all[i]!;
    const [p0, c0] = all[i - 1]!;
    if (percent <= p1) {
      const f = (percent - p0) / (p1 - p0);
      return [0, 1, 2].map((k) => Math.round(c0[k]! + (c1[k]! - c0[k]!) * f)) as [number, number, number];
    }
  }
  return all[all.length - 1]![1];
}

/** RGBA per cell byte (half percent; 255 = no reading: transparent), as little-endian Uint32 for ImageData. */
export function heatTable(theme: string): Uint32Array {
  const table = new Uint32Array(256);
  for (let cell = 0; cell <= 200; cell++) {
    const [r, g, b] = colourAt(cell / 2, theme);
    table[cell] = ((255 << 24) | (b << 16) | (g << 8) | r) >>> 0;
  }
  return table;
}

/** The legend's gradient, from the same stops. */
export function heatGradient(theme: string): string {
  return `linear-gradient(to right, ${stops(theme)
    .map(([p, [r, g, b]]) => `rgb(${r} ${g} ${b}) ${p}%`)
    .join(', ')})`;
}
