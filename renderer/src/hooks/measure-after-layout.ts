import type { Rect, Virtualizer } from '@tanstack/react-virtual';

/**
 * Virtualizer options that size the scroll area and its rows from ResizeObserver reports only. The library's
 * defaults read `clientHeight`/`offsetHeight` as each row mounts: inside React's commit, before the browser has laid
 * the new rows out, so each read forces a layout of everything just added (the grid's mount was mostly that).
 * ResizeObserver reports come after the frame's own layout; until then a row counts as its estimate.
 */
export const measureAfterLayout = {
  observeElementRect<T extends Element>(instance: Virtualizer<T, Element>, report: (rect: Rect) => void): () => void {
    const element = instance.scrollElement;
    if (!element) return () => undefined;
    // Read in the observer's callback, when layout is done: reading it there costs nothing.
    const observer = new ResizeObserver(() => report({ width: element.clientWidth, height: element.clientHeight }));
    observer.observe(element);
    return () => observer.disconnect();
  },
  measureElement<T extends Element>(element: Element, entry: ResizeObserverEntry | undefined, instance: Virtualizer<T, Element>): number {
    const box = entry?.borderBoxSize[0];
    if (box) return Math.round(box.blockSize);
    const index = instance.indexFromElement(element);
    return instance.itemSizeCache.get(instance.options.getItemKey(index)) ?? instance.options.estimateSize(index);
  },
};
