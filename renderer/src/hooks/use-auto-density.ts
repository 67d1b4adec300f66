import { useEffect, useRef, useState } from 'react';
import type { GridSection } from '../view-model/nodes/grid-layout.js';
import { DENSITY_ORDER, resolveDensity, type Density, type DensitySetting, type GridMetrics } from '../view-model/nodes/grid-rows.js';

/**
 * How long more detail must have fit before the grid goes back to it without room to spare. Without it, 144 data
 * nodes on a 1080p screen (tiles fit with 35 px to spare) stayed dense tiles for good after any alert strip or
 * smaller window had squeezed them once; with it, a strip that grows and shrinks by a row flips the grid at most
 * once per this long.
 */
export const DENSITY_RETURN_MS = 4000;

/** The density to draw: `resolveDensity` holding what was drawn, and more detail back once it has fit a while. */
export function useAutoDensity(setting: DensitySetting, sections: readonly GridSection[], width: number, height: number, metricsOf: (d: Density) => GridMetrics): Density {
  const drawn = useRef<Density>('comfortable');
  const held = resolveDensity(setting, sections, width, height, metricsOf, drawn.current);
  const fitting = resolveDensity(setting, sections, width, height, metricsOf);
  const moreDetail = DENSITY_ORDER.indexOf(fitting) < DENSITY_ORDER.indexOf(held);
  const [settled, setSettled] = useState<Density | null>(null);
  const density = moreDetail && settled === fitting ? fitting : held;
  useEffect(() => {
    drawn.current = density;
  }, [density]);
  useEffect(() => {
    if (!moreDetail) {
      setSettled(null);
      return undefined;
    }
    const id = setTimeout(() => setSettled(fitting), DENSITY_RETURN_MS);
    return () => clearTimeout(id);
  }, [moreDetail, fitting]);
  return density;
}
