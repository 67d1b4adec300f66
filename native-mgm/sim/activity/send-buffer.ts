/** SendBufferMemory's default per transporter; a buffer over 80 % of it is overloaded, over 60 % slowed down. */
export const SEND_BUFFER_BYTES = 2 * 1024 * 1024;
const OVERLOAD_SHARE = 0.8;
const SLOWDOWN_SHARE = 0.6;
/** What a link drains in about 2 ms when the network has room: the buffer's resting level. */
const DRAIN_SECONDS = 0.002;

export interface SendBufferState {
  /** Bytes waiting in the link's send buffer. */
  used: number;
  overloaded: boolean;
  slowdown: boolean;
}

/** Use of the network above which data starts to wait in the buffer, filling it by the time the network is full. */
const BACKLOG_FROM = 0.7;

/**
 * A link's send buffer at a send rate over a network of `bandwidth` bytes/s: about 2 ms of what it sends, plus a
 * backlog that grows from 70 % use of the network to the whole buffer at 100 % (a model, not measured: slowed down
 * from about 88 %, overloaded from about 94 %).
 */
export function sendBufferState(outPerSec: number, bandwidth: number): SendBufferState {
  const backlog = Number.isFinite(bandwidth) && bandwidth > 0 ? Math.max(0, (outPerSec / bandwidth - BACKLOG_FROM) / (1 - BACKLOG_FROM)) : 0;
  const used = Math.round(Math.min(SEND_BUFFER_BYTES, outPerSec * DRAIN_SECONDS + backlog * SEND_BUFFER_BYTES));
  return { used, overloaded: used > SEND_BUFFER_BYTES * OVERLOAD_SHARE, slowdown: used > SEND_BUFFER_BYTES * SLOWDOWN_SHARE };
}
