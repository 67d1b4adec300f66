/** SendBufferMemory's default per transporter; a buffer over 80 % of it is overloaded, over 60 % slowed down. */
export const SEND_BUFFER_BYTES = 2 * 1024 * 1024;
const OVERLOAD_SHARE = 0.8;
const SLOWDOWN_SHARE = 0.6;
/** What a link drains in about 2 ms when the network has room: the bytes in flight at any send rate. */
const DRAIN_SECONDS = 0.002;

export interface SendBufferState {
  /** Bytes waiting in the link's send buffer. */
  used: number;
  overloaded: boolean;
  slowdown: boolean;
}

/** A link's buffer as configured: its own SendBufferMemory, from its node's pool (TotalSendBufferMemory). */
export interface SendBufferLimits {
  linkBytes: number;
  /** TotalSendBufferMemory, or (0 in the configuration) the sum of the node's links' SendBufferMemory. */
  nodeBytes: number;
}

/** What a buffer of `limits` holding `backlog` bytes waiting for the network shows with `outPerSec` in flight. */
export function sendBufferState(backlog: number, outPerSec: number, limits: SendBufferLimits): SendBufferState {
  const used = Math.round(Math.min(limits.linkBytes, backlog + outPerSec * DRAIN_SECONDS));
  return { used, overloaded: used > limits.linkBytes * OVERLOAD_SHARE, slowdown: used > limits.linkBytes * SLOWDOWN_SHARE };
}

/**
 * The bytes waiting in one link's send buffer after `ms` more: what is offered beyond the network's `bandwidth` is
 * added, up to the link's SendBufferMemory and what the node's pool has free (`poolFree`); the network drains it at
 * its full speed less what is offered. Never faster either way: a buffer fills at (offered − link rate) and drains at
 * (link rate − offered).
 */
export function advanceBacklog(backlog: number, outPerSec: number, bandwidth: number, ms: number, limits: SendBufferLimits, poolFree: number): number {
  if (!Number.isFinite(bandwidth)) return 0;
  const next = backlog + ((outPerSec - bandwidth) * ms) / 1000;
  return Math.max(0, Math.min(next, limits.linkBytes, backlog + Math.max(0, poolFree)));
}
