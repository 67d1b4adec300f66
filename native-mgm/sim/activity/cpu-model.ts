import type { NodeLoad } from './node-load.js';
import type { ThreadKind } from './thread-layout.js';
import type { DataNodeThread } from './thread-layout.js';
import { countOf } from './thread-layout.js';

/**
 * CPU cost per unit of work, in µs of one thread. Chosen so flexAsynch's ~200k operations per data node and second
 * bring 4 LDM threads to 85–95 % (the LDM threads are what saturates in flexAsynch's scaling results), the TC
 * threads to about a quarter and receive/send threads in between; not measured on a real node.
 */
const COST_US = {
  ldmRead: 15,
  ldmWrite: 10,
  ldmRangeScan: 40,
  ldmScan: 400,
  tcTrans: 4,
  tcOp: 1.5,
  recvByte: 0.005,
  sendByte: 0.004,
  repWrite: 0.3,
  mainLcpPerKiB: 1,
} as const;

/** Every thread's own background work (timers, heartbeats) as a share of its time. */
const BASE_SHARE: Readonly<Record<ThreadKind, number>> = { main: 0.01, rep: 0.004, ldm: 0.006, query: 0.003, tc: 0.004, recv: 0.008, send: 0.003 };

export interface ThreadDemand {
  /** Work offered per second of the thread's time (1 = exactly busy; above 1 it cannot keep up). */
  exec: number;
  /** The part of it spent sending (block threads send themselves when there are no send threads). */
  send: number;
}

export interface NodeTraffic {
  bytesInPerSec: number;
  bytesOutPerSec: number;
  /** LCP bytes written per second (the main thread coordinates, the LDM threads scan). */
  lcpBytesPerSec: number;
}

/** The work each thread of a node is offered at a load: LDM and TC work spread over their threads, or done by the receive threads where there are none. */
export function threadDemands(threads: readonly DataNodeThread[], load: NodeLoad, traffic: NodeTraffic): ThreadDemand[] {
  const ldm = countOf(threads, 'ldm');
  const tc = countOf(threads, 'tc');
  const recv = Math.max(1, countOf(threads, 'recv'));
  const send = countOf(threads, 'send');
  const ldmWork = (load.reads * COST_US.ldmRead + load.replicaWrites * COST_US.ldmWrite + load.rangeScans * COST_US.ldmRangeScan + load.scans * COST_US.ldmScan) / 1e6;
  const tcWork = (load.trans * COST_US.tcTrans + load.tcOps * COST_US.tcOp) / 1e6;
  const recvWork = (traffic.bytesInPerSec * COST_US.recvByte) / 1e6;
  const sendWork = (traffic.bytesOutPerSec * COST_US.sendByte) / 1e6;
  const senders = send > 0 ? send : ldm + tc || recv;
  return threads.map((t) => {
    let exec = BASE_SHARE[t.kind];
    if (t.kind === 'ldm') exec += ldmWork / ldm;
    if (t.kind === 'tc') exec += tcWork / tc;
    if (t.kind === 'recv') exec += recvWork / recv + (ldm === 0 ? ldmWork / recv : 0) + (tc === 0 ? tcWork / recv : 0);
    if (t.kind === 'rep') exec += (load.replicaWrites * COST_US.repWrite) / 1e6;
    if (t.kind === 'main') exec += ((traffic.lcpBytesPerSec / 1024) * COST_US.mainLcpPerKiB) / 1e6;
    const sends = send > 0 ? t.kind === 'send' : ldm + tc > 0 ? t.kind === 'ldm' || t.kind === 'tc' : t.kind === 'recv';
    const sendShare = sends ? sendWork / senders : 0;
    return { exec: exec + sendShare, send: sendShare };
  });
}

/** ndbinfo `cpustat` percentages of one thread over one second. */
export interface CpuPercentages {
  OS_user: number;
  OS_system: number;
  OS_idle: number;
  thread_exec: number;
  thread_sleeping: number;
  thread_spinning: number;
  thread_send: number;
  thread_buffer_full: number;
}

/**
 * A thread's second as cpustat splits it. A thread offered more than it can do is busy all the time and waits on
 * full job buffers for part of it; `noise` (around 1) varies the figures from second to second.
 */
export function cpuPercentages(demand: ThreadDemand, noise: number): CpuPercentages {
  const busy = Math.min(0.99, demand.exec * noise);
  const sendShare = demand.exec > 0 ? demand.send / demand.exec : 0;
  const bufferFull = Math.round(Math.min(8, Math.max(0, demand.exec - 1) * 20));
  const send = Math.round(busy * sendShare * 100);
  const exec = Math.round(busy * 100) - send;
  const sleeping = Math.max(0, 100 - exec - send - bufferFull);
  const user = Math.round(exec * 0.85 + send * 0.3);
  const system = Math.round(exec * 0.15 + send * 0.7);
  return {
    OS_user: user,
    OS_system: system,
    OS_idle: Math.max(0, 100 - user - system),
    thread_exec: exec,
    thread_sleeping: sleeping,
    thread_spinning: 0,
    thread_send: send,
    thread_buffer_full: bufferFull,
  };
}
