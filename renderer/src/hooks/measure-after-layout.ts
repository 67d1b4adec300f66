import { elementScroll, observeElementOffset, type Rect, type VirtualizerOptions, type Virtualizer } from '@tanstack/react-virtual';

/** Where each scroll element was last seen scrolled to (by its scroll events), so an unneeded write is skipped. */
const seenOffset = new WeakMap<Element, number>();

/**
 * Virtualizer options that never make the browser lay the page out in the middle of React's commit. The library's
 * defaults read `clientHeight`/`offsetHeight` as each row mounts and write the scroll position when it attaches:
 * each forces a layout of everything just added (the grid's mount was mostly that). Here the scroll area and the rows
 * are sized from ResizeObserver reports, which come after the frame's own layout (until then a row counts as its
 * estimate), and a scroll write to where the element already is, is skipped.
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
  observeElementOffset<T extends Element>(instance: Virtualizer<T, Element>, report: (offset: number, isScrolling: boolean) => void): (() => void) | undefined {
    const element = instance.scrollElement;
    return observeElementOffset(instance, (offset, isScrolling) => {
      if (element) seenOffset.set(element, offset);
      report(offset, isScrolling);
    });
  },
  scrollToFn<T extends Element>(offset: number, options: { adjustments?: number; behavior?: ScrollBehavior }, instance: Virtualizer<T, Element>): void {
    const element = instance.scrollElement;
    // An element never scrolled is at 0.
    if (element && options.behavior === undefined && offset + (options.adjustments ?? 0) === (seenOffset.get(element) ?? 0)) return;
    elementScroll(offset, options, instance);
  },
  measureElement<T extends Element>(element: Element, entry: ResizeObserverEntry | undefined, instance: Virtualizer<T, Element>): number {
    const box = entry?.borderBoxSize[0];
    if (box) return Math.round(box.blockSize);
    const index = instance.indexFromElement(element);
    return instance.itemSizeCache.get(instance.options.getItemKey(index)) ?? instance.options.estimateSize(index);
  },
} satisfies Partial<VirtualizerOptions<Element, Element>>;
