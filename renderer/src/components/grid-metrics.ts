import type { GridSection } from '../view-model/grid-layout.js';
import type { Density, GridMetrics } from '../view-model/grid-rows.js';

/** Room for the action buttons under a data node card when actions are enabled. */
const ACTIONS_HEIGHT = 30;
const CARD_HEIGHT: Record<GridSection['kind'], number> = { nodegroup: 236, ungrouped: 236, mgm: 150, api: 150 };
const isData = (kind: GridSection['kind']): boolean => kind === 'nodegroup' || kind === 'ungrouped';

export function comfortableMetrics(actions: boolean): GridMetrics {
  return {
    minItemWidth: 250,
    gap: 10,
    headerHeight: 44,
    itemHeight: (kind) => CARD_HEIGHT[kind] + (actions && isData(kind) ? ACTIONS_HEIGHT : 0),
    packs: (kind) => kind === 'nodegroup',
  };
}

/** 144 data nodes in 72 two-replica groups, the management nodes and the API summary on one 1920×1080 screen. */
export const COMPACT_METRICS: GridMetrics = {
  minItemWidth: 96,
  gap: 6,
  headerHeight: 24,
  itemHeight: () => 58,
  packs: (kind) => kind !== 'api',
};

export function metricsFor(density: Density, actions: boolean): GridMetrics {
  return density === 'compact' ? COMPACT_METRICS : comfortableMetrics(actions);
}
