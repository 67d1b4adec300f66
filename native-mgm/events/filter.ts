import type { Category } from './catalogue.js';

/**
 * The `filter` value of `listen event`: items separated by exactly one space, because the server splits at
 * every separator and rejects the empty item a ", " would make (spec §6.1, pitfall 12).
 */
export function formatListenFilter(levels: Readonly<Partial<Record<Category, number>>>): string {
  const items = Object.entries(levels).map(([category, level]) => {
    if (!Number.isInteger(level) || (level as number) < 0 || (level as number) > 15) {
      throw new RangeError(`level of ${category} must be 0..15, got ${level}`);
    }
    // WARNING has no name the server accepts; only its number reaches it (§6.1).
    return `${category === 'WARNING' ? '257' : category}=${level}`;
  });
  if (items.length === 0) throw new RangeError('an event filter needs at least one category');
  return items.join(' ');
}
