import type { NdbinfoLinks, NdbinfoLinksSummary } from '../schemas/ndbinfo.js';

/**
 * How many links of one reading are in trouble: the engine's snapshot summary, and the page's line above the link
 * matrix, which counts the reading the matrix shows so the two never disagree while a newer one is being fetched.
 */
export function linksSummary({ at, stale, links }: NdbinfoLinks): NdbinfoLinksSummary {
  let overloaded = 0;
  let slowdown = 0;
  for (const l of links) {
    if (l.overloaded) overloaded++;
    else if (l.slowdown) slowdown++;
  }
  return { at, stale, count: links.length, overloaded, slowdown };
}
