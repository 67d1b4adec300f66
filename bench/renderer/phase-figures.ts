import type { CDPSession, Page } from 'playwright-core';
import { percentile } from '../stats.js';
import { mainTasks, traceMainThread } from './trace.js';

/** One measured phase of a view (mount, window switch, steady state): what the page's probe and a trace saw. */
export interface PhaseFigures {
  frames: number[];
  longTasks: number[];
  /** Main-thread tasks from a trace: wall and CPU ms (CPU time is what the page cost, whatever the machine's load). */
  tasks: Array<{ wall: number; cpu: number }>;
}

/** Runs `run` with the page's frame and long-task probe (`window.__bench`) emptied first, traced. */
export async function measurePhase(page: Page, cdp: CDPSession, run: () => Promise<void>): Promise<PhaseFigures> {
  await page.evaluate('window.__bench.frames = []; window.__bench.longTasks = []');
  const tasks = mainTasks(await traceMainThread(cdp, run));
  return { ...((await page.evaluate('({ frames: window.__bench.frames, longTasks: window.__bench.longTasks })')) as Omit<PhaseFigures, 'tasks'>), tasks };
}

export const ms = (v: number): string => `${v.toFixed(1)} ms`;

/** Frames, long tasks and the heaviest tasks' CPU time of a phase, on one line after `label`. */
export function phaseLine(label: string, f: PhaseFigures): string {
  const cpuLong = f.tasks.filter((t) => t.cpu > 50);
  // CPU time is what a task cost whatever the machine's load; wall time is what the frame goal counts.
  const heaviest = f.tasks.map((t) => t.cpu).sort((a, b) => b - a).slice(0, 6);
  return `${label} ${f.frames.length} frames · p50 ${ms(percentile(f.frames, 50))} · p95 ${ms(percentile(f.frames, 95))} (goal <= 16.7 ms) · long tasks ${f.longTasks.length} (longest ${ms(Math.max(0, ...f.longTasks))}) · tasks over 50 ms of CPU ${cpuLong.length} (heaviest, ms of CPU: ${heaviest.map((v) => v.toFixed(0)).join(' ')})`;
}
