import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { SEVERITIES } from '../../contract.js';
import { measureAfterLayout } from '../../hooks/measure-after-layout.js';
import { perNodeMap } from '../../store/node-map.js';
import { useApp, useAppContext } from '../../store/use-app.js';
import type { EventFilter } from '../../store/ui-slice.js';
import { atLeast, categoriesOf, visibleEvents } from '../../view-model/events/event-filter.js';
import { foldEvents } from '../../view-model/events/event-fold.js';
import { EventRow } from './EventRow.js';

const ROW_HEIGHT = 30;
const nodeIdsKey = perNodeMap((nodes) => [...nodes.keys()].join(','));
export const FOCUS_FILTER_EVENT = 'ndbtop:focus-event-filter';

function FilterBar({ filter, categories, nodeIds }: { filter: EventFilter; categories: string[]; nodeIds: number[] }) {
  const { store } = useAppContext();
  const follow = useApp((s) => s.ui.follow);
  const inputRef = useRef<HTMLInputElement>(null);
  const set = (patch: Partial<EventFilter>) => store.setUi({ eventFilter: { ...filter, ...patch } });
  useEffect(() => {
    const focus = () => inputRef.current?.focus();
    window.addEventListener(FOCUS_FILTER_EVENT, focus);
    return () => window.removeEventListener(FOCUS_FILTER_EVENT, focus);
  }, []);
  return (
    <div className="filter-bar">
      <input ref={inputRef} type="search" placeholder="search  /" aria-label="search events" data-testid="event-search" value={filter.text} onChange={(e) => set({ text: e.target.value })} />
      <select aria-label="category" data-testid="event-category" value={filter.categories[0] ?? ''} onChange={(e) => set({ categories: e.target.value ? [e.target.value] : [] })}>
        <option value="">all categories</option>
        {categories.map((c) => (
          <option key={c}>{c}</option>
        ))}
      </select>
      {/* A threshold, as ndb_mgm's CLUSTERLOG levels are: "at least WARNING" keeps ERROR, CRITICAL and ALERT too. */}
      <select aria-label="minimum severity" data-testid="event-severity" value={filter.severities[0] ?? ''} onChange={(e) => set({ severities: atLeast(e.target.value) })}>
        <option value="">all severities</option>
        {SEVERITIES.map((s) => (
          <option key={s} value={s}>
            at least {s}
          </option>
        ))}
      </select>
      <select aria-label="node" data-testid="event-node" value={filter.nodeId ?? ''} onChange={(e) => set({ nodeId: e.target.value ? Number(e.target.value) : null })}>
        <option value="">all nodes</option>
        {nodeIds.map((id) => (
          <option key={id} value={id}>
            node {id}
          </option>
        ))}
      </select>
      <label title="newest at the bottom, scrolling along">
        <input type="checkbox" checked={follow} onChange={(e) => store.setUi({ follow: e.target.checked })} /> follow
      </label>
    </div>
  );
}

/** The cluster log, virtualised and folded: ten thousand events cost the DOM only the rows on screen. */
export function EventLog() {
  const events = useApp((s) => s.shown.events);
  const filter = useApp((s) => s.ui.eventFilter);
  const follow = useApp((s) => s.ui.follow);
  const nodesKey = useApp((s) => nodeIdsKey(s.shown.nodes));
  const scrollRef = useRef<HTMLDivElement>(null);
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(new Set());
  const matched = useMemo(() => visibleEvents(events, filter, follow), [events, filter, follow]);
  const rows = useMemo(() => foldEvents(matched), [matched]);
  const categories = useMemo(() => categoriesOf(events), [events]);
  const nodeIds = useMemo(() => (nodesKey ? nodesKey.split(',').map(Number) : []), [nodesKey]);
  const toggle = useCallback((key: number) => setExpanded((prev) => new Set(prev.has(key) ? [...prev].filter((k) => k !== key) : [...prev, key])), []);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    getItemKey: (i) => rows[i]?.key ?? i,
    overscan: 10,
    ...measureAfterLayout,
  });

  useEffect(() => {
    if (follow && rows.length > 0) virtualizer.scrollToIndex(rows.length - 1, { align: 'end' });
  }, [follow, rows.length, matched.length, virtualizer]);

  return (
    <section className="event-log" aria-label="event log">
      <FilterBar filter={filter} categories={categories} nodeIds={nodeIds} />
      <div className="event-scroll" ref={scrollRef} data-testid="event-log" data-count={matched.length} data-rows={rows.length}>
        {rows.length === 0 && <p className="empty">{events.length === 0 ? 'No events yet' : 'No event matches the filter'}</p>}
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const fold = rows[item.index];
            // Expanded rows are taller: each row is measured once drawn.
            return fold ? (
              <div key={item.key} data-index={item.index} ref={virtualizer.measureElement} style={{ position: 'absolute', top: 0, left: 0, right: 0, transform: `translateY(${item.start}px)` }}>
                <EventRow fold={fold} expanded={expanded.has(fold.key)} onToggle={toggle} />
              </div>
            ) : null;
          })}
        </div>
      </div>
    </section>
  );
}
