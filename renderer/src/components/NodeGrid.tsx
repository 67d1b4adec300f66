import { useVirtualizer } from '@tanstack/react-virtual';
import { useMemo, useRef } from 'react';
import { useWidth } from '../hooks/use-width.js';
import { useApp, useAppContext } from '../store/use-app.js';
import { gridSections, layoutKey, type GridSection } from '../view-model/grid-layout.js';
import { GroupHeader } from './GroupHeader.js';
import { NodeCard } from './NodeCard.js';

const CARD_MIN_WIDTH = 250;
const GAP = 10;
const HEADER_HEIGHT = 44;
const CARD_HEIGHT: Record<GridSection['kind'], number> = { nodegroup: 236, ungrouped: 236, mgm: 150, api: 150 };
/** Room for the action buttons under a data node when actions are enabled. */
const ACTIONS_HEIGHT = 30;

type Row =
  | { kind: 'header'; section: GridSection }
  | { kind: 'cards'; section: GridSection; nodeIds: number[] }
  /** Small node groups side by side, each with its own header: 144 data nodes in 2-replica groups fill the screen. */
  | { kind: 'groups'; sections: GridSection[] };

function rowsOf(sections: readonly GridSection[], columns: number): Row[] {
  const rows: Row[] = [];
  let packed: GridSection[] = [];
  let used = 0;
  const flush = (): void => {
    if (packed.length > 0) rows.push({ kind: 'groups', sections: packed });
    packed = [];
    used = 0;
  };
  for (const section of sections) {
    if (section.kind === 'nodegroup' && section.nodeIds.length <= columns) {
      if (used + section.nodeIds.length > columns) flush();
      packed.push(section);
      used += section.nodeIds.length;
      continue;
    }
    flush();
    rows.push({ kind: 'header', section });
    for (let i = 0; i < section.nodeIds.length; i += columns) rows.push({ kind: 'cards', section, nodeIds: section.nodeIds.slice(i, i + columns) });
  }
  flush();
  return rows;
}

/**
 * Node groups, then management nodes, then API nodes, in rows of cards; only the rows on screen (plus a few) are
 * in the DOM. Re-renders only when the cluster's shape changes: each card follows its own node.
 */
export function NodeGrid() {
  const { store } = useAppContext();
  const scrollRef = useRef<HTMLDivElement>(null);
  const width = useWidth(scrollRef);
  const shape = useApp((s) => layoutKey(s.shown.nodes));
  const groupsKey = useApp((s) => s.shown.nodeGroups.map((g) => g.nodeGroup).join(','));
  const actions = useApp((s) => s.appInfo?.actionsEnabled === true);
  const cardHeight = (kind: GridSection['kind']): number => CARD_HEIGHT[kind] + (actions && (kind === 'nodegroup' || kind === 'ungrouped') ? ACTIONS_HEIGHT : 0);
  const columns = Math.max(1, Math.floor((width - GAP + 1) / (CARD_MIN_WIDTH + GAP)));
  // The shape key stands for the nodes' layout; the store is read once per shape change, not per delta.
  const sections = useMemo(() => {
    const { nodes, nodeGroups } = store.getState().shown;
    return gridSections(nodes, nodeGroups);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [store, shape, groupsKey]);
  const rows = useMemo(() => rowsOf(sections, columns), [sections, columns]);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => {
      const row = rows[i];
      if (!row || row.kind === 'header') return HEADER_HEIGHT;
      return row.kind === 'groups' ? HEADER_HEIGHT + cardHeight('nodegroup') + GAP : cardHeight(row.section.kind) + GAP;
    },
    overscan: 3,
  });

  return (
    <div className="grid-scroll" ref={scrollRef} data-testid="node-grid">
      {rows.length === 0 && <p className="empty">Waiting for the first status from the management server…</p>}
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index];
          if (!row) return null;
          return (
            <div key={item.key} className="grid-row" style={{ position: 'absolute', top: 0, left: 0, right: 0, transform: `translateY(${item.start}px)` }}>
              {row.kind === 'header' && <GroupHeader section={row.section} />}
              {row.kind === 'groups' && (
                <div className="group-row" style={{ gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))` }}>
                  {row.sections.map((section) => (
                    <div key={section.kind === 'nodegroup' ? section.nodeGroup : section.kind} className="group-block" style={{ gridColumn: `span ${section.nodeIds.length}` }}>
                      <GroupHeader section={section} />
                      <div className="cards" style={{ gridTemplateColumns: `repeat(${section.nodeIds.length}, minmax(0, 1fr))`, height: cardHeight('nodegroup') }}>
                        {section.nodeIds.map((id) => (
                          <NodeCard key={id} nodeId={id} />
                        ))}
                      </div>
                    </div>
                  ))}
                </div>
              )}
              {row.kind === 'cards' && (
                <div className="cards" style={{ gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`, height: cardHeight(row.section.kind) }}>
                  {row.nodeIds.map((id) => (
                    <NodeCard key={id} nodeId={id} />
                  ))}
                </div>
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}
