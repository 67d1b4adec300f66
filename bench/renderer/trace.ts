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
  args?: { name?: string; data?: { url?: string; type?: string } };
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

/** A main-thread task: wall and CPU milliseconds, and what it spent them on. */
export interface MainTask {
  wall: number;
  cpu: number;
  /** Its outermost steps grouped and summed (CPU ms), biggest first: `js mount 12, style+layout 5`. */
  what: string;
}

const STEP_GROUPS: ReadonlyArray<[RegExp, string]> = [
  [/^v8\.evaluateModule$/, 'module run'],
  [/^(v8\.compile|v8\.compileModule|V8\.CompileCode|v8\.parseOnBackground)/, 'compile'],
  [/^(UpdateLayoutTree|Layout|RecalculateStyles|ScheduleStyleRecalculation)$/, 'style+layout'],
  [/^(Paint|PrePaint|Layerize|Commit|UpdateLayer|PaintImage|CompositeLayers|RasterTask)$/, 'paint'],
  [/GC/, 'gc'],
  [/^ParseHTML$/, 'html'],
];

/** Events that only carry what runs inside them (a message arriving, a call into V8): their insides are the steps. */
const WRAPPERS = new Set(['SimpleWatcher::OnHandleReady', 'Receive mojo message', 'ThreadControllerImpl::RunTask', 'v8.callFunction', 'BlinkScheduler_PerformMicrotaskCheckpoint', 'RunMicrotasks']);

function stepGroup(e: TraceEvent): string {
  if (e.name === 'FunctionCall' || e.name === 'EventDispatch') {
    const file = e.args?.data?.url?.split('/').pop()?.replace(/-[\w-]{8}\.js$/, '');
    return file ? `js ${file}` : e.name === 'EventDispatch' ? `event ${e.args?.data?.type ?? ''}` : 'js';
  }
  return STEP_GROUPS.find(([pattern]) => pattern.test(e.name))?.[1] ?? e.name;
}

/** The main thread's tasks, with what each ran (its outermost steps, not counting a step inside another twice). */
export function mainTasks(events: readonly TraceEvent[]): MainTask[] {
  const sorted = [...events].sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const tasks: MainTask[] = [];
  let end = -Infinity;
  let stepEnd = -Infinity;
  let steps = new Map<string, number>();
  const close = (): void => {
    const last = tasks.at(-1);
    if (last) last.what = [...steps].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([k, v]) => `${k} ${(v / 1000).toFixed(0)}`).join(', ');
  };
  for (const e of sorted) {
    if (e.name === 'RunTask') {
      close();
      tasks.push({ wall: (e.dur ?? 0) / 1000, cpu: (e.tdur ?? 0) / 1000, what: '' });
      end = e.ts + (e.dur ?? 0);
      stepEnd = -Infinity;
      steps = new Map();
      continue;
    }
    if (e.ts >= end || e.ts < stepEnd || WRAPPERS.has(e.name)) continue;
    stepEnd = e.ts + (e.dur ?? 0);
    const group = stepGroup(e);
    steps.set(group, (steps.get(group) ?? 0) + (e.tdur ?? e.dur ?? 0));
  }
  close();
  return tasks;
}
