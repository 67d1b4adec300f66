import type { GridSection } from '../../view-model/nodes/grid-layout.js';
import type { Density, GridMetrics } from '../../view-model/nodes/grid-rows.js';

/** Room for the action buttons under a data node card when actions are enabled. */
const ACTIONS_HEIGHT = 30;
/** What a card needs when nothing extra shows; rows are measured, so a taller card (start progress) still fits. */
const CARD_HEIGHT: Record<GridSection['kind'], number> = { nodegroup: 204, ungrouped: 204, mgm: 132, api: 132 };
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

/**
 * 144 data nodes in 72 two-replica groups on one 1920×1080 screen beside the event log (the management nodes and the
 * API summary too in dashboard mode): 15 columns of tiles, 11 rows of node groups.
 */
export const COMPACT_METRICS: GridMetrics = {
  minItemWidth: 76,
  gap: 5,
  headerHeight: 25,
  itemHeight: () => 52,
  packs: (kind) => kind !== 'api',
};

/** 144 data nodes, the management nodes and 40 API nodes on one 1280×720 wall screen: id, memory, status, bars. */
export const DENSE_METRICS: GridMetrics = {
  minItemWidth: 56,
  gap: 3,
  headerHeight: 18,
  itemHeight: () => 34,
  packs: (kind) => kind !== 'api',
};

export function metricsFor(density: Density, actions: boolean): GridMetrics {
  if (density === 'comfortable') return comfortableMetrics(actions);
  return density === 'compact' ? COMPACT_METRICS : DENSE_METRICS;
}
