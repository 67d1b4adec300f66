import type { GridSection } from './grid-layout.js';

export type GridRow =
  | { kind: 'header'; section: GridSection }
  | { kind: 'items'; section: GridSection; nodeIds: number[] }
  /** Small sections side by side, each with its own header: 72 two-replica node groups fill the screen, not a column. */
  | { kind: 'groups'; sections: GridSection[] };

/** Sizes of one density of the grid, in CSS pixels. */
export interface GridMetrics {
  minItemWidth: number;
  gap: number;
  headerHeight: number;
  itemHeight(kind: GridSection['kind']): number;
  /** Sections that may share a row with others when they fit in it. */
  packs(kind: GridSection['kind']): boolean;
}

export type Density = 'comfortable' | 'compact' | 'dense';
/** From most to least detail: "auto" takes the first at which the data nodes fit. */
export const DENSITY_ORDER: readonly Density[] = ['comfortable', 'compact', 'dense'];
export type DensitySetting = Density | 'auto';

export function gridColumns(width: number, m: GridMetrics): number {
  return Math.max(1, Math.floor((width - m.gap + 1) / (m.minItemWidth + m.gap)));
}

export function gridRows(sections: readonly GridSection[], columns: number, m: GridMetrics): GridRow[] {
  const rows: GridRow[] = [];
  let packed: GridSection[] = [];
  let used = 0;
  const flush = (): void => {
    if (packed.length > 0) rows.push({ kind: 'groups', sections: packed });
    packed = [];
    used = 0;
  };
  for (const section of sections) {
    if (m.packs(section.kind) && section.nodeIds.length <= columns) {
      if (used + section.nodeIds.length > columns) flush();
      packed.push(section);
      used += section.nodeIds.length;
      continue;
    }
    flush();
    rows.push({ kind: 'header', section });
    for (let i = 0; i < section.nodeIds.length; i += columns) rows.push({ kind: 'items', section, nodeIds: section.nodeIds.slice(i, i + columns) });
  }
  flush();
  return rows;
}

/** The most columns any row of packed sections uses; 0 without such rows. */
export function packedWidth(rows: readonly GridRow[]): number {
  let widest = 0;
  for (const row of rows) if (row.kind === 'groups') widest = Math.max(widest, row.sections.reduce((n, s) => n + s.nodeIds.length, 0));
  return widest;
}

export function rowHeight(row: GridRow, m: GridMetrics): number {
  switch (row.kind) {
    case 'header':
      return m.headerHeight;
    case 'items':
      return m.itemHeight(row.section.kind) + m.gap;
    case 'groups':
      return m.headerHeight + Math.max(...row.sections.map((s) => m.itemHeight(s.kind))) + m.gap;
  }
}

function isDataSection(section: GridSection): boolean {
  return section.kind === 'nodegroup' || section.kind === 'ungrouped';
}

/** Once at less detail, more detail comes back only when it would leave this share of the height free. */
export const DENSITY_HYSTERESIS = 0.2;

/**
 * "auto" is the most detailed density at which all data nodes fit on screen: cards, else tiles, else dense tiles
 * (144 data nodes on a 720p wall screen). On a wall screen the whole cluster at once matters more than the details
 * of each node, which stay one click away. Going back to more detail needs room to spare, so an alert strip growing
 * and shrinking by a row does not flip the whole grid back and forth (the grid also goes back once it has fit a
 * while: hooks/use-auto-density.ts).
 */
export function resolveDensity(setting: DensitySetting, sections: readonly GridSection[], width: number, height: number, metricsOf: (d: Density) => GridMetrics, current: Density = 'comfortable'): Density {
  if (setting !== 'auto') return setting;
  if (width <= 0 || height <= 0) return current;
  const data = sections.filter(isDataSection);
  const drawn = DENSITY_ORDER.indexOf(current);
  const fits = (density: Density, rank: number): boolean => {
    const m = metricsOf(density);
    const needed = gridRows(data, gridColumns(width, m), m).reduce((sum, row) => sum + rowHeight(row, m), 0);
    return needed <= (rank < drawn ? height * (1 - DENSITY_HYSTERESIS) : height);
  };
  return DENSITY_ORDER.find((density, rank) => fits(density, rank)) ?? 'dense';
}

/** Every size of a density times `scale`: tiles drawn larger, with the same layout rules. */
export function scaleMetrics(m: GridMetrics, scale: number): GridMetrics {
  if (scale === 1) return m;
  return { ...m, minItemWidth: m.minItemWidth * scale, gap: m.gap * scale, headerHeight: m.headerHeight * scale, itemHeight: (kind) => m.itemHeight(kind) * scale };
}

/** How much larger dashboard tiles may be drawn, in steps, from none to over twice. */
export const FILL_SCALES: readonly number[] = [1, 1.25, 1.5, 1.75, 2, 2.25, 2.5];

/**
 * The largest scale at which every section still fits `height`: in dashboard mode 48 data nodes as compact tiles
 * filled half of a 1080p screen with 8 px status words; scaled up they fill it and read from across the room.
 */
export function fillScale(sections: readonly GridSection[], width: number, height: number, m: GridMetrics): number {
  if (width <= 0 || height <= 0) return 1;
  const fits = (scale: number): boolean => {
    const s = scaleMetrics(m, scale);
    return gridRows(sections, gridColumns(width, s), s).reduce((sum, row) => sum + rowHeight(row, s), 0) <= height;
  };
  return [...FILL_SCALES].reverse().find(fits) ?? 1;
}
