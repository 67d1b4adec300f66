import { Backoff } from '../../native-mgm/client/backoff.js';
import { NdbinfoSource, type NdbinfoSourceOptions, type SourceEvent } from '../client/ndbinfo-source.js';

/** A source with short intervals and backoff, and every event it emitted, for tests against a real server. */
export function recordingSource(options: Partial<NdbinfoSourceOptions> & Pick<NdbinfoSourceOptions, 'addresses' | 'password'>): { source: NdbinfoSource; events: SourceEvent[] } {
  const source = new NdbinfoSource({
    connectTimeoutMs: 2000,
    queryTimeoutMs: 2000,
    intervals: { cpu: 50, restarts: 200, logspaces: 100, transporters: 60, memory: 100, resources: 100, diskPageBuffer: 100, diskWriteSpeed: 100 },
    backoff: new Backoff({ baseMs: 50, capMs: 200 }),
    ...options,
  });
  const events: SourceEvent[] = [];
  source.subscribe((e) => events.push(e));
  return { source, events };
}

/** Waits (bounded) until `events` holds one that `match` accepts after index `from`; returns its index. */
export async function waitFor(events: readonly SourceEvent[], match: (e: SourceEvent) => boolean, from = 0, timeoutMs = 15_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const i = events.findIndex((e, j) => j >= from && match(e));
    if (i >= 0) return i;
    if (Date.now() > deadline) throw new Error(`no matching event within ${timeoutMs} ms; had: ${JSON.stringify(events.slice(from).map((e) => (e.type === 'state' ? e.state : e.type === 'sample' ? e.sample.reading : e)).slice(-20))}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export const isState = (kind: string) => (e: SourceEvent): boolean => e.type === 'state' && e.state.kind === kind;
export const isSample = (reading: string) => (e: SourceEvent): boolean => e.type === 'sample' && e.sample.reading === reading;

/** Waits (bounded) until `count` events after `from` match. */
export async function waitForCount(events: readonly SourceEvent[], match: (e: SourceEvent) => boolean, count: number, from = 0): Promise<void> {
  let at = from;
  for (let k = 0; k < count; k += 1) at = (await waitFor(events, match, at)) + 1;
}
