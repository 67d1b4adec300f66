import type { CDPSession } from 'playwright-core';

/** One event of a Chromium trace (the DevTools protocol's Tracing domain), times in µs. */
export interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  /** Thread (CPU) time: what the task cost itself, whatever else the machine was running. */
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string };
}

export const TIMELINE = 'devtools.timeline,disabled-by-default-devtools.timeline';

/** Traces while `run` runs; returns the complete events of the page's main thread. */
export async function traceMainThread(cdp: CDPSession, run: () => Promise<void>, categories = TIMELINE): Promise<TraceEvent[]> {
  return onMainThread(await traceAll(cdp, run, categories));
}

/** Every event of a trace taken while `run` runs, of every process and thread. */
export async function traceAll(cdp: CDPSession, run: () => Promise<void>, categories = TIMELINE): Promise<TraceEvent[]> {
  const events: TraceEvent[] = [];
  const collect = (e: { value: unknown }) => void events.push(...(e.value as TraceEvent[]));
  cdp.on('Tracing.dataCollected', collect);
  const complete = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  await cdp.send('Tracing.start', { categories, transferMode: 'ReportEvents' });
  try {
    await run();
  } finally {
    await cdp.send('Tracing.end');
    await complete;
    cdp.off('Tracing.dataCollected', collect);
  }
  return events;
}

/** The complete events of the page's main thread. */
export function onMainThread(events: readonly TraceEvent[]): TraceEvent[] {
  const mains = new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  return events.filter((e) => e.ph === 'X' && mains.has(`${e.pid}:${e.tid}`));
}

/** The main thread's tasks, wall and CPU milliseconds. */
export function mainTasks(events: readonly TraceEvent[]): Array<{ wall: number; cpu: number }> {
  return events.filter((e) => e.name === 'RunTask').map((e) => ({ wall: (e.dur ?? 0) / 1000, cpu: (e.tdur ?? 0) / 1000 }));
}
