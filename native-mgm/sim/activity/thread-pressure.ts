import type { CpuPercentages, ThreadDemand } from './cpu-model.js';
import type { DataNodeThread, ThreadKind } from './thread-layout.js';

/**
 * A scenario knob: the threads of one kind on one node are offered more work than they can do, and the OS gives
 * them less CPU than they are runnable for (another process, a hypervisor, swapping). Such a thread stops
 * answering its timers in time, which is how a data node misses its heartbeats.
 */
export interface ThreadPressure {
  kind: ThreadKind;
  /** Work offered per second of the thread's time (above 1 it cannot keep up). */
  exec: number;
  /** Share of the thread's time the OS gave to something else: its OS user and system time shrink by it. */
  stolen: number;
}

/** The demands with the pressed threads' work raised to the pressure's. */
export function pressDemands(threads: readonly DataNodeThread[], demands: ThreadDemand[], pressure: ThreadPressure | undefined): ThreadDemand[] {
  if (!pressure) return demands;
  return demands.map((d, i) => (threads[i]?.kind === pressure.kind ? { ...d, exec: Math.max(d.exec, pressure.exec) } : d));
}

/**
 * cpustat as a thread whose time was stolen shows it: busy by the wall clock (thread_exec), while the OS counted
 * less user and system time for it, the rest as idle.
 */
export function stealOsTime(threads: readonly DataNodeThread[], cpu: CpuPercentages[], pressure: ThreadPressure | undefined): CpuPercentages[] {
  if (!pressure || pressure.stolen <= 0) return cpu;
  return cpu.map((c, i) => {
    if (threads[i]?.kind !== pressure.kind) return c;
    const user = Math.round(c.OS_user * (1 - pressure.stolen));
    const system = Math.round(c.OS_system * (1 - pressure.stolen));
    return { ...c, OS_user: user, OS_system: system, OS_idle: Math.max(0, 100 - user - system) };
  });
}
