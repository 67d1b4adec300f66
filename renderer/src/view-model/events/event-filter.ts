import { SEVERITIES, type EventView, type Severity } from '../../contract.js';
import type { EventFilter } from '../../store/ui-slice.js';

/** The severities from `min` up, least severe first (the contract lists them DEBUG … ALERT); none from a word that is no severity. */
export function atLeast(min: string): Severity[] {
  const from = SEVERITIES.findIndex((s) => s === min);
  return from < 0 ? [] : SEVERITIES.slice(from);
}

export function isFilterEmpty(f: EventFilter): boolean {
  return f.categories.length === 0 && f.severities.length === 0 && f.nodeId === null && f.text.trim() === '';
}

/** An event about a node matches that node whether it was reported by it or is its subject. */
export function matchesFilter(event: EventView, f: EventFilter): boolean {
  if (f.categories.length > 0 && !f.categories.includes(event.category ?? '')) return false;
  if (f.severities.length > 0 && (event.severity === null || !f.severities.includes(event.severity))) return false;
  if (f.nodeId !== null && event.sourceNodeId !== f.nodeId && event.subjectNodeId !== f.nodeId) return false;
  const text = f.text.trim().toLowerCase();
  if (text !== '') {
    const haystack = `${event.name} ${event.text} ${event.category ?? ''}`.toLowerCase();
    if (!text.split(/\s+/).every((word) => haystack.includes(word))) return false;
  }
  return true;
}

/** Newest first unless following, where the newest is at the bottom like a tail -f. */
export function visibleEvents(events: readonly EventView[], f: EventFilter, follow: boolean): EventView[] {
  const kept = isFilterEmpty(f) ? [...events] : events.filter((e) => matchesFilter(e, f));
  return follow ? kept : kept.reverse();
}

export function categoriesOf(events: readonly EventView[]): string[] {
  return [...new Set(events.map((e) => e.category).filter((c): c is string => c !== null))].sort();
}
