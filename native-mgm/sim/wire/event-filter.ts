import { CATEGORY_NUMBERS, FILTER_CATEGORY_NAMES, type Category } from '../../events/catalogue.js';

export type LevelMap = ReadonlyMap<Category, number>;

const MAX_LEVEL = 15;

const CATEGORY_BY_NUMBER = new Map<number, Category>(Object.entries(CATEGORY_NUMBERS).map(([name, n]) => [n, name as Category]));

/** C `atoi`: optional sign and leading digits, 0 when there are none. */
function atoi(text: string): number {
  const m = /^\s*[+-]?\d+/.exec(text);
  return m ? parseInt(m[0], 10) : 0;
}

/**
 * The `listen event` filter (spec §6.1): split at every single space or comma, each item `<category>=<level>`
 * or `<category>:<level>`, names upper-cased, numbers 250..262, levels 0..15. Returns the levels per category
 * (unmentioned categories are 0) or the server's error text for `msg:`.
 */
export function parseEventFilter(value: string): { levels: LevelMap } | { error: string } {
  const full = value.trim();
  if (full === '') return { error: 'Empty filter specification' };
  const levels = new Map<Category, number>();
  for (const item of full.split(/[ ,]/)) {
    const parts = item.split(/[=:]/);
    if (parts.length !== 2) return { error: `Invalid filter specification: >${full}< >${item}< ${parts.length}` };
    const name = (parts[0] ?? '').toUpperCase();
    const category =
      (FILTER_CATEGORY_NAMES as readonly string[]).includes(name)
        ? (name as Category)
        : CATEGORY_BY_NUMBER.get(atoi(name)) ?? null;
    if (category === null) return { error: `Unknown category: >${name}<` };
    const level = atoi(parts[1] ?? '');
    if (level < 0 || level > MAX_LEVEL) return { error: `Invalid level: >${parts[1] ?? ''}<` };
    levels.set(category, level);
  }
  return { levels };
}
