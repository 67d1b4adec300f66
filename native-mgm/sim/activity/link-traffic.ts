import type { ClusterState } from '../state/cluster-state.js';
import { inCluster, type DataNode } from '../state/node-state.js';
import { WIRE, type NodeLoad } from './node-load.js';
import type { SendBufferState } from './send-buffer.js';

export type LinkStatus = 'CONNECTED' | 'CONNECTING';

/** One transporter of a data node: to another data node, a management server or an API node. */
export interface Link {
  remoteId: number;
  remoteAddress: string;
  status: LinkStatus;
  /** Bytes per second this node sends on it and receives from it. */
  outPerSec: number;
  inPerSec: number;
  /** Bytes per second the node's load puts on it to send: more than `outPerSec` when the network is narrower. */
  offeredPerSec: number;
  /** Its send buffer at that rate (and whether overloaded or slowed down). */
  sendBuffer: SendBufferState;
}

const processUp = (n: DataNode): boolean => n.status === 'STARTING' || n.status === 'STARTED' || n.status === 'SHUTTING_DOWN';

/** A link's send buffer when it sends `outPerSec` to `remoteId` (what has backed up in it is the caller's state). */
export type SendBufferOf = (remoteId: number, outPerSec: number) => SendBufferState;

/**
 * The bytes each of a data node's links carries at a load (and its send buffer, from `buffer`), so that ndbinfo's
 * transporter counters follow the
 * operation rates: requests from and replies to the connected API nodes (shared evenly), each write sent on to the
 * other replicas of its node group, and background signals on every connected link. A data-node link carries the
 * same bytes each way, so the two ends' counters agree.
 */
export function nodeLinks(cluster: ClusterState, node: DataNode, load: NodeLoad, rowBytes: number, buffer: SendBufferOf): Link[] {
  const apis = [...cluster.api.values()].filter((a) => a.connected);
  const writes = load.tcOps - load.reads;
  const apiIn = apis.length ? (load.tcOps * WIRE.requestBytes + writes * rowBytes) / apis.length : 0;
  const apiOut = apis.length ? (load.reads * (WIRE.replyBytes + rowBytes) + writes * WIRE.replyBytes) / apis.length : 0;
  const peers = cluster.nodeGroupMembers(node.nodeGroup).filter((p) => p.id !== node.id);
  // This node is the primary of 1/replicas of the writes it executes and forwards each of those to every other replica.
  const primaryWrites = load.replicaWrites / cluster.replicas;
  const replication = primaryWrites * (WIRE.replicationBytes + rowBytes);
  const idle = WIRE.idleBytesPerSec;
  const links: Link[] = [];
  const push = (l: Omit<Link, 'sendBuffer' | 'offeredPerSec'>): void => void links.push(Object.assign(l, { offeredPerSec: l.outPerSec, sendBuffer: buffer(l.remoteId, l.outPerSec) }));
  // Management servers usually have the lowest ids and API nodes the highest: in this order the links are most often
  // sorted already, and the check below spares a sort per node and step (a 144-node cluster integrates ~80,000 a second).
  for (const m of cluster.mgm.values()) {
    push({ remoteId: m.id, remoteAddress: m.address, status: m.running ? 'CONNECTED' : 'CONNECTING', outPerSec: m.running ? idle : 0, inPerSec: m.running ? idle : 0 });
  }
  for (const d of cluster.data.values()) {
    if (d.id === node.id) continue;
    const up = processUp(d) && inCluster(node);
    const bytes = up ? idle + (peers.includes(d) && d.status === 'STARTED' ? replication : 0) : 0;
    push({ remoteId: d.id, remoteAddress: d.address, status: processUp(d) ? 'CONNECTED' : 'CONNECTING', outPerSec: bytes, inPerSec: bytes });
  }
  for (const a of cluster.api.values()) {
    push({
      remoteId: a.id,
      remoteAddress: a.connected ? a.address : '-',
      status: a.connected ? 'CONNECTED' : 'CONNECTING',
      outPerSec: a.connected ? idle + apiOut : 0,
      inPerSec: a.connected ? idle + apiIn : 0,
    });
  }
  const sorted = links.every((l, i) => i === 0 || links[i - 1]!.remoteId < l.remoteId);
  return sorted ? links : links.sort((x, y) => x.remoteId - y.remoteId);
}
