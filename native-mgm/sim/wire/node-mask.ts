import { scanUnsigned, trimSpaceTab } from './request-parser.js';

/** Ids above this (MAX_NDB_NODES - 1, spec §1.6) make `dump events` refuse its `nodes`. */
const MAX_DATA_NODE_ID = 144;

/**
 * `dump events`' `nodes` as the server's `parse_mask` and `valid_nodes` read it (spec §14.5): a comma-separated
 * list of ids and `first-last` ranges (either order), each read like sscanf `%u`; blank means every data node
 * (an empty list). null when it is unparsable or names id 0 or one above 144, which the server refuses whole.
 */
export function parseNodeMask(text: string): number[] | null {
  if (trimSpaceTab(text) === '') return [];
  const ids = new Set<number>();
  for (const item of text.split(',').map(trimSpaceTab)) {
    if (item === '') return null;
    const dash = item.indexOf('-');
    const first = scanUnsigned(dash < 0 ? item : item.slice(0, dash));
    const last = dash < 0 ? first : scanUnsigned(item.slice(dash + 1));
    if (first === null || last === null) return null;
    const [from, to] = first <= last ? [first, last] : [last, first];
    // Past the bitmask's width it is unparsable, past 144 invalid: the same refusal either way.
    if (from === 0 || to > MAX_DATA_NODE_ID) return null;
    for (let id = from; id <= to; id++) ids.add(id);
  }
  return [...ids].sort((a, b) => a - b);
}
