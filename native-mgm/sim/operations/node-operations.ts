import type { ClusterState } from '../state/cluster-state.js';
import { nodeConnected } from '../lifecycle/connect.js';
import { startDataNodes } from '../lifecycle/start.js';
import { stopDataNode, type StopOptions } from '../lifecycle/stop.js';
import { START_TYPE } from '../lifecycle/timings.js';
import type { DataNode } from '../state/node-state.js';
import type { Prng } from '../state/prng.js';
import { MGM_ERROR, type OperationResult } from './mgm-errors.js';
import { isRunning, refusal, splitNodeList, wouldCrash } from './shutdown-checks.js';

/** How operations reach the management servers themselves; both act after the current reply went out. */
export interface MgmdControl {
  scheduleStop(nodeId: number): void;
  scheduleRestart(nodeId: number): void;
}

export interface OperationContext {
  cluster: ClusterState;
  prng: Prng;
  mgmd: MgmdControl;
  /** The mgmd the command arrived on (0 for programmatic calls): stopping it means `disconnect: 1`. */
  viewer: number;
}

export interface RestartFlags {
  initial?: boolean;
  nostart?: boolean;
  abort?: boolean;
  force?: boolean;
}

const ok = (count: number, disconnect = false): OperationResult => ({ ok: true, count, disconnect });

function stopAllOf(ctx: OperationContext, nodes: readonly DataNode[], options: StopOptions): Promise<void[]> {
  return Promise.all(nodes.filter(isRunning).map((n) => stopDataNode(ctx.cluster, n, options, ctx.prng)));
}

/** Stops or restarts the listed management servers; returns whether the viewer is among them. */
function actOnMgmds(ctx: OperationContext, ids: readonly number[], restart: boolean): boolean {
  for (const id of ids) {
    if (restart) ctx.mgmd.scheduleRestart(id);
    else ctx.mgmd.scheduleStop(id);
  }
  return ids.includes(ctx.viewer);
}

/**
 * `restart node v2` (spec §4.13): synchronous like the server, it resolves once the nodes are back in
 * NOT_STARTED and the start order went out (or at NOT_STARTED with `nostart`).
 */
export async function restartNodes(ctx: OperationContext, ids: readonly number[], flags: RestartFlags): Promise<OperationResult> {
  ctx.cluster.takeRestartHook()?.(ids);
  const split = splitNodeList(ctx.cluster, ids);
  const refused = refusal(ctx.cluster, split, flags.force ?? false, flags.abort ?? false);
  if (refused !== null) return { ok: false, code: refused };
  let targets = split.data;
  if (wouldCrash(ctx.cluster, targets)) {
    if (!flags.force) return { ok: false, code: MGM_ERROR.shutdownWouldCrash };
    return restartAll(ctx, flags);
  }
  const initial = flags.initial ?? false;
  await stopAllOf(ctx, targets, { restart: true, initial, abort: flags.abort ?? false, clusterStop: false });
  targets = targets.filter((n) => n.status === 'NOT_STARTED');
  // The server that took the command sends the start order itself once the nodes wait in NOT_STARTED: if it went
  // away meanwhile (stopped, failed over), nobody does, and the nodes keep waiting (spec §4.13, §8.3).
  const orderer = ctx.cluster.mgm.get(ctx.viewer);
  if (!flags.nostart && (orderer === undefined || orderer.running)) {
    for (const n of targets) void startDataNodes(ctx.cluster, [n], initial ? START_TYPE.initialNodeRestart : START_TYPE.nodeRestart);
  }
  return ok(targets.length + split.mgm.length, actOnMgmds(ctx, split.mgm, true));
}

/** `restart all`: a system restart; all data nodes stop together and start together. */
export async function restartAll(ctx: OperationContext, flags: RestartFlags): Promise<OperationResult> {
  if (ctx.cluster.singleUserApi !== null) return { ok: false, code: MGM_ERROR.singleUserMode };
  const all = [...ctx.cluster.data.values()];
  if (!flags.abort && !flags.force && all.some((n) => n.status === 'STARTING')) return { ok: false, code: MGM_ERROR.startingOrStopping };
  const initial = flags.initial ?? false;
  await stopAllOf(ctx, all, { restart: true, initial, abort: flags.abort ?? false, clusterStop: true });
  const waiting = all.filter((n) => n.status === 'NOT_STARTED');
  if (!flags.nostart) void startDataNodes(ctx.cluster, waiting, initial ? START_TYPE.initialStart : START_TYPE.systemRestart);
  return ok(waiting.length);
}

/** `stop v2` (spec §4.14); with `force`, a refused stop becomes a stop of all data nodes. */
export async function stopNodes(ctx: OperationContext, ids: readonly number[], abort: boolean, force: boolean): Promise<OperationResult> {
  const split = splitNodeList(ctx.cluster, ids);
  const refused = refusal(ctx.cluster, split, force, abort);
  if (refused !== null) return { ok: false, code: refused };
  let targets = split.data;
  let clusterStop = false;
  if (wouldCrash(ctx.cluster, targets)) {
    if (!force) return { ok: false, code: MGM_ERROR.shutdownWouldCrash };
    targets = [...ctx.cluster.data.values()].filter(isRunning);
    clusterStop = true;
  }
  await stopAllOf(ctx, targets, { restart: false, initial: false, abort, clusterStop });
  return ok(targets.length + split.mgm.length, actOnMgmds(ctx, split.mgm, false));
}

/** `stop all`: data nodes, and with `mgm` in the `stop` argument the management servers too. */
export async function stopAll(ctx: OperationContext, abort: boolean, db: boolean, mgm: boolean): Promise<OperationResult> {
  const targets = db ? [...ctx.cluster.data.values()].filter(isRunning) : [];
  await stopAllOf(ctx, targets, { restart: false, initial: false, abort, clusterStop: true });
  const mgmds = mgm ? [...ctx.cluster.mgm.values()].filter((m) => m.running).map((m) => m.id) : [];
  return ok(targets.length + mgmds.length, actOnMgmds(ctx, mgmds, false));
}

/** `start`: the start order for a node waiting in NOT_STARTED. */
export function startNode(ctx: OperationContext, id: number): OperationResult {
  const node = ctx.cluster.data.get(id);
  if (!node) return { ok: false, code: MGM_ERROR.wrongProcessType };
  if (node.status === 'NO_CONTACT') return { ok: false, code: MGM_ERROR.noContactWithProcess };
  if (node.status === 'NOT_STARTED') void startDataNodes(ctx.cluster, [node], START_TYPE.nodeRestart);
  return ok(1);
}

/** `start all`: every waiting node; with no node of the cluster running this is a system restart. */
export function startAll(ctx: OperationContext): OperationResult {
  const waiting = [...ctx.cluster.data.values()].filter((n) => n.status === 'NOT_STARTED');
  if (ctx.cluster.liveDataNodes().length === 0) {
    void startDataNodes(ctx.cluster, waiting, START_TYPE.systemRestart);
  } else {
    for (const n of waiting) void startDataNodes(ctx.cluster, [n], START_TYPE.nodeRestart);
  }
  return ok(waiting.length);
}

/**
 * Brings data nodes whose processes are gone back (ndbd started by hand or by a script): they connect, then
 * start together as an initial start or a system restart.
 */
export function startCluster(ctx: OperationContext, initial: boolean): Promise<void> {
  const down = [...ctx.cluster.data.values()].filter((n) => n.status === 'NO_CONTACT' || n.status === 'NOT_STARTED');
  for (const n of down) if (n.status === 'NO_CONTACT') nodeConnected(ctx.cluster, n);
  return startDataNodes(ctx.cluster, down, initial ? START_TYPE.initialStart : START_TYPE.systemRestart);
}
