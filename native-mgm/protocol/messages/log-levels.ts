import type { Reply } from '../frames.js';
import { acceptReply, parseIntStrict } from './reply-fields.js';

/**
 * `get cluster loglevel` (header without "reply", spec §4.9): read by name and keep keys we do not know,
 * because a newer server added `schema` and an older mgmapi broke on it.
 */
export function parseClusterLogLevelsReply(reply: Reply): Record<string, number> {
  const { reply: r } = acceptReply(reply, 'get cluster loglevel');
  return Object.fromEntries(r.pairs.map(([k, v]) => [k, parseIntStrict(v, `level of ${k}`)]));
}

/** `get info clusterlog` → which severities the cluster log writes (header `clusterlog`, spec §4.8). */
export function parseClusterLogFilterReply(reply: Reply): Record<string, boolean> {
  const { reply: r } = acceptReply(reply, 'get info clusterlog');
  return Object.fromEntries(r.pairs.map(([k, v]) => [k, parseIntStrict(v, `clusterlog ${k}`) !== 0]));
}

/** `set logfilter` answers with the severity's new state, 0 or 1, not Ok (spec §4.8). */
export function parseSetLogFilterReply(reply: Reply): boolean {
  const { fields } = acceptReply(reply, 'set logfilter');
  return fields.int('result') !== 0;
}
