import { useEffect, useState } from 'react';
import type { NdbinfoLinks, NdbtopApi } from '../contract.js';
import type { AppState } from '../store/store.js';
import { useApp, useAppContext } from '../store/use-app.js';

/**
 * Data nodes an answer: each counts one link per other node (up to 255), ~230 bytes each, so 16 rows stay under
 * 1 MB where serve sends a WebSocket client at most 2 MiB at once.
 */
const NODES_PER_ANSWER = 16;

/** Which reading the snapshot's summary describes: the links are asked again only when it moves. */
function readingOf(s: AppState): string | null {
  const l = s.shown.ndbinfo?.links;
  return l ? `${l.at}:${l.stale}` : null;
}

function dataNodeIds(s: AppState): number[] {
  const ids = new Set<number>(s.shown.ndbinfoNodes.keys());
  for (const n of s.shown.nodes.values()) if (n.type === 'NDB') ids.add(n.nodeId);
  return [...ids].sort((a, b) => a - b);
}

/** Every data node's links, a few nodes an answer, as one set once all parts came. */
async function fetchLinks(api: NdbtopApi, clusterId: string, ids: readonly number[]): Promise<NdbinfoLinks | null> {
  if (ids.length === 0) return api.getLinks({ clusterId });
  let out: NdbinfoLinks | null = null;
  for (let i = 0; i < ids.length; i += NODES_PER_ANSWER) {
    const part = await api.getLinks({ clusterId, nodeIds: ids.slice(i, i + NODES_PER_ANSWER) });
    if (!part) return null;
    // Parts asked across a new reading: the set is as old as its oldest part, stale if any part is.
    out = out ? { at: Math.min(out.at, part.at), stale: out.stale || part.stale, links: [...out.links, ...part.links] } : part;
  }
  return out;
}

/**
 * The links between nodes (`getLinks`), which the snapshot leaves out: asked while `enabled`, again each time its
 * summary says a new reading came. One fetch at a time; a reading that comes during one is fetched after it, so a
 * slow answer (144 data nodes on a busy machine) is never abandoned for the next.
 */
export function useLinks(enabled: boolean): NdbinfoLinks | null {
  const { api, store } = useAppContext();
  const clusterId = useApp((s) => s.shown.clusterId);
  const [links, setLinks] = useState<NdbinfoLinks | null>(null);
  useEffect(() => {
    setLinks(null);
    if (!enabled || clusterId === null) return;
    let alive = true;
    let busy = false;
    let fetched: string | null = null;
    const refresh = async (): Promise<void> => {
      if (busy) return;
      busy = true;
      try {
        for (let want = readingOf(store.getState()); alive && want !== fetched; want = readingOf(store.getState())) {
          fetched = want;
          const next = want === null ? null : await fetchLinks(api, clusterId, dataNodeIds(store.getState()));
          if (alive) setLinks(next);
        }
      } catch (err: unknown) {
        store.setUi({ error: `links: ${err instanceof Error ? err.message : String(err)}` });
      } finally {
        busy = false;
      }
    };
    void refresh();
    const unsubscribe = store.subscribe((s, prev) => {
      if (s.shown.ndbinfo !== prev.shown.ndbinfo) void refresh();
    });
    return () => {
      alive = false;
      unsubscribe();
    };
  }, [api, store, clusterId, enabled]);
  return links;
}
