import { useVirtualizer } from '@tanstack/react-virtual';
import { useMemo, useRef, type ComponentType, type CSSProperties, type RefObject } from 'react';
import { measureAfterLayout } from '../../hooks/measure-after-layout.js';
import { useGrowingLimit } from '../../hooks/use-growing-limit.js';
import { useAutoDensity } from '../../hooks/use-auto-density.js';
import { useSize } from '../../hooks/use-size.js';
import { perNodeMap } from '../../store/node-map.js';
import { useApp, useAppContext } from '../../store/use-app.js';
import { gridSections, layoutKey, type GridSection } from '../../view-model/nodes/grid-layout.js';
import { fillScale, gridColumns, gridRows, packedWidth, rowHeight, scaleMetrics, type Density, type GridMetrics } from '../../view-model/nodes/grid-rows.js';
import { AfterFirstPaint } from '../AfterFirstPaint.js';
import { GRID_KEYS_HINT, useGridFocus } from './grid-focus.js';
import { EmptyGrid } from './EmptyGrid.js';
import { GroupHeader } from './GroupHeader.js';
import { NodeCard } from './NodeCard.js';
import { NodeDetail } from './NodeDetail.js';
import { NodeTile } from './NodeTile.js';
import { metricsFor } from './grid-metrics.js';

const shapeOf = perNodeMap(layoutKey);

/** Rows mounted per frame while the grid first fills: about 25 tiles, whose style, layout and paint stay near 15 ms. */
const ROWS_PER_FRAME = 2;

function sectionKey(section: GridSection): string {
  return section.kind === 'nodegroup' ? `ng${section.nodeGroup}` : section.kind;
}

/** The rows on screen (plus a few) of one density; remounted when the density changes so sizes are measured anew. */
function GridRows({ sections, width, height, metrics, density, scrollRef }: { sections: readonly GridSection[]; width: number; height: number; metrics: GridMetrics; density: Density; scrollRef: RefObject<HTMLDivElement | null> }) {
  const compact = density !== 'comfortable';
  const Item: ComponentType<{ nodeId: number; tabbable: boolean }> = compact ? NodeTile : NodeCard;
  const fit = gridColumns(width, metrics);
  // Two-node groups leave an odd column empty in every row: the grid then uses the columns they fill, everywhere,
  // so that space is shared out instead of left as a gap at the right.
  const columns = useMemo(() => packedWidth(gridRows(sections, fit, metrics)) || fit, [sections, fit, metrics]);
  const rows = useMemo(() => gridRows(sections, columns, metrics), [sections, columns, metrics]);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => {
      const row = rows[i];
      return row ? rowHeight(row, metrics) : metrics.headerHeight;
    },
    overscan: 3,
    // The size NodeGrid already has: the first rows are chosen without measuring the scroll area again.
    initialRect: { width, height },
    ...measureAfterLayout,
  });
  // A screenful of rows is 144 tiles: mounted a few rows per frame, the first rows show at once and no task is long.
  const limit = useGrowingLimit(rows.length, ROWS_PER_FRAME);
  const shown = virtualizer.getVirtualItems();
  const focus = useGridFocus(rows, (index) => virtualizer.scrollToIndex(index));
  const items = (section: GridSection, nodeIds: readonly number[], span: number) => (
    // A floor, not a height: a card that needs more room (start progress, actions) gets it, and the row is measured.
    <div className="cards" style={{ gridTemplateColumns: `repeat(${span}, minmax(0, 1fr))`, minHeight: metrics.itemHeight(section.kind), gap: metrics.gap }}>
      {nodeIds.map((id) => (
        <Item key={id} nodeId={id} tabbable={id === focus.current} />
      ))}
    </div>
  );
  return (
    <div
      ref={focus.root}
      role="group"
      aria-label="nodes: arrow keys move between them"
      className={compact ? `grid-compact grid-${density}` : undefined}
      style={{ height: virtualizer.getTotalSize(), position: 'relative' }}
      onFocus={focus.onFocus}
      onKeyDown={focus.onKeyDown}
    >
      {shown.map((item) => {
        const row = rows[item.index];
        if (!row || item.index >= (shown[0]?.index ?? 0) + limit) return null;
        return (
          // Rows are measured once drawn (and whenever they resize), so the next row starts where this one really ends.
          <div
            key={item.key}
            ref={virtualizer.measureElement}
            data-index={item.index}
            className="grid-row"
            style={{ position: 'absolute', top: 0, left: 0, right: 0, transform: `translateY(${item.start}px)`, paddingBottom: row.kind === 'header' ? 0 : metrics.gap }}
          >
            {row.kind === 'header' && <GroupHeader section={row.section} compact={compact} />}
            {row.kind === 'groups' && (
              <div className="group-row" style={{ gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`, gap: metrics.gap }}>
                {row.sections.map((section) => (
                  <div key={sectionKey(section)} className="group-block" style={{ gridColumn: `span ${section.nodeIds.length}` }}>
                    <GroupHeader section={section} compact={compact} />
                    {items(section, section.nodeIds, section.nodeIds.length)}
                  </div>
                ))}
              </div>
            )}
            {row.kind === 'items' && items(row.section, row.nodeIds, columns)}
          </div>
        );
      })}
    </div>
  );
}

/**
 * Node groups, then management nodes, then API nodes, as cards or (compact) tiles; only the rows on screen are in
 * the DOM. Re-renders only when the cluster's shape or the space changes: each card or tile follows its own node.
 */
export function NodeGrid() {
  const { store } = useAppContext();
  const scrollRef = useRef<HTMLDivElement>(null);
  const { width, height } = useSize(scrollRef);
  const shape = useApp((s) => shapeOf(s.shown.nodes));
  const groupsKey = useApp((s) => s.shown.nodeGroups.map((g) => g.nodeGroup).join(','));
  const actions = useApp((s) => s.appInfo?.actionsEnabled === true);
  const setting = useApp((s) => s.ui.density);
  // The shape key stands for the nodes' layout; the store is read once per shape change, not per delta.
  const sections = useMemo(() => {
    const { nodes, nodeGroups } = store.getState().shown;
    return gridSections(nodes, nodeGroups);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [store, shape, groupsKey]);
  const density = useAutoDensity(setting, sections, width, height, (d) => metricsFor(d, actions));
  // Dashboard mode on auto: tiles as large as the screen allows (the whole cluster still on it).
  const fullscreen = useApp((s) => s.ui.fullscreen);
  const scale = fullscreen && setting === 'auto' && density !== 'comfortable' ? fillScale(sections, width, height, metricsFor(density, actions)) : 1;
  const metrics = useMemo(() => scaleMetrics(metricsFor(density, actions), scale), [density, actions, scale]);

  return (
    // The detail panel overlays this area only: the event log beside it keeps its filters and messages in view.
    <div className="grid-area">
      <div className="grid-scroll" ref={scrollRef} data-testid="node-grid" data-density={density} data-scale={scale} style={{ '--tile-scale': scale } as CSSProperties}>
        {sections.length === 0 && <EmptyGrid />}
        {width > 0 && (
          <AfterFirstPaint>
            <GridRows key={`${density}-${scale}`} sections={sections} width={width} height={height} metrics={metrics} density={density} scrollRef={scrollRef} />
          </AfterFirstPaint>
        )}
      </div>
      {/* The grid is one tab stop: where the focus lands, it says how to go on (and each item is described by it). */}
      <p className="grid-keys-hint" id={GRID_KEYS_HINT} data-testid="grid-keys-hint">
        ← → ↑ ↓ move between nodes · Home / End: first / last · Tab: this node's actions, then on past the grid
      </p>
      <NodeDetail />
    </div>
  );
}
