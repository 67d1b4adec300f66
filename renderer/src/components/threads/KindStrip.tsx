import { useEffect, useMemo, useRef, useState } from 'react';
import { useSize } from '../../hooks/use-size.js';
import { useApp } from '../../store/use-app.js';
import { stripWindow } from '../../view-model/inside/strip-window.js';
import { formatPercent, kindAverages, kindLabel } from '../../view-model/inside/threads.js';
import { hostCpuText } from '../../view-model/inside/release-notes.js';

/** One line of the strip in CSS pixels (the stylesheet gives its items this height), and how many show at once. */
const LINE_PX = 18;
const LINES_SHOWN = 3;
/** Space between two items on a line. */
const GAP_PX = 16;
/** What the bold node name may take beyond the same text measured in the regular weight. */
const BOLD_ROOM_PX = 8;

let measuring: CanvasRenderingContext2D | null = null;

/** Width in CSS pixels of the widest of `texts` in the element's font (the longest few by length are measured). */
function widest(texts: readonly string[], font: string): number {
  // One context for every measurement: a new one each second had to set up its font again.
  measuring ??= document.createElement('canvas').getContext('2d');
  const ctx = measuring;
  if (!ctx || texts.length === 0) return 0;
  ctx.font = font;
  const longest = [...texts].sort((a, b) => b.length - a.length).slice(0, 3);
  return Math.max(...longest.map((t) => ctx.measureText(t).width));
}

/**
 * Per data node the mean busy share of each kind of thread, in lines of equal columns of which three show at once.
 * Only the lines in view are in the page: at 144 data nodes every push changes nearly every node's figures, and
 * laying out 144 items of text again each second was a long part of the view's update for the nine an operator sees.
 */
export function KindStrip() {
  const nodes = useApp((s) => s.shown.ndbinfoNodes);
  // The host's CPUs lead where the SQL node reads them (cpudata): a host busy beyond its threads shows at once.
  const rows = useMemo(
    () =>
      kindAverages(nodes.values()).map((r) => {
        const host = hostCpuText(nodes.get(r.nodeId)?.hostCpu);
        return { ...r, text: [...(host ? [host] : []), ...r.kinds.map((k) => `${kindLabel(k.kind)} ${formatPercent(k.busy)}`)].join(', ') };
      }),
    [nodes],
  );
  const scrollRef = useRef<HTMLDivElement>(null);
  const { width } = useSize(scrollRef);
  const [font, setFont] = useState<string | null>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const any = rows.length > 0;
  useEffect(() => {
    if (any && scrollRef.current) setFont(getComputedStyle(scrollRef.current).font);
  }, [any]);
  // Columns as wide as the widest item (its node's name in bold: a little room for that).
  const itemWidth = useMemo(() => (font ? Math.ceil(widest(rows.map((r) => `node ${r.nodeId} ${r.text}`), font)) + BOLD_ROOM_PX : 0), [rows, font]);
  if (rows.length === 0) return null;
  const { perLine, lines, from, to, padTop, padBottom } = stripWindow(rows.length, width, itemWidth, GAP_PX, LINE_PX, LINES_SHOWN, scrollTop);
  const shown = rows.slice(from, to);
  // At 144 data nodes three lines show nine of them: the count says the rest are a scroll away.
  return (
    <div className="kind-strip-box">
      <span className="muted kind-strip-count" data-testid="thread-kind-strip-count">
        mean busy by kind{rows.some((r) => r.text.startsWith('host ')) ? ', beside the host CPUs' : ''}, {rows.length} data node{rows.length === 1 ? '' : 's'}
        {lines > LINES_SHOWN ? ' (scroll)' : ''}
      </span>
      <div className="kind-strip-scroll" ref={scrollRef} style={{ maxHeight: LINES_SHOWN * LINE_PX }} onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}>
        <ul
          className="kind-strip"
          data-testid="thread-kind-strip"
          aria-label="mean busy share per kind of thread, per data node"
          style={{ gridTemplateColumns: `repeat(${perLine}, minmax(0, ${itemWidth > 0 ? `${itemWidth}px` : '1fr'}))`, columnGap: GAP_PX, paddingTop: padTop, paddingBottom: padBottom }}
        >
          {shown.map((r, i) => (
            <li key={r.nodeId} className={r.stale ? 'muted' : undefined} data-node={r.nodeId} aria-setsize={rows.length} aria-posinset={from + i + 1}>
              <b>node {r.nodeId}</b> {r.text}
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
