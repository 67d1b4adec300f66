import type { ServerResponse } from 'node:http';
import { securityHeaders } from '../http/security-headers.js';

/**
 * How fast a request body must come. Node's `requestTimeout` bounds the whole request, which would cut a large
 * recording upload over a slow link; a pace bounds the clients that dribble instead: within `graceMs` of its
 * headers a body may come at any rate, past that it must have averaged `minBytesPerSecond` since them. A JSON
 * body (64 KiB at most) so has to be complete within the grace; an upload just has to keep moving.
 */
export interface BodyPace {
  graceMs: number;
  minBytesPerSecond: number;
}

/** 16 KiB/s is 128 kbit/s: any link a recording is uploaded over does better, a one-byte dribble does not. */
export const DEFAULT_BODY_PACE: BodyPace = { graceMs: 10_000, minBytesPerSecond: 16 * 1024 };

/** Whether a body that has been coming for `elapsedMs` and brought `received` bytes is behind the pace (grace aside). */
export function behindPace(pace: BodyPace, elapsedMs: number, received: number): boolean {
  return received < (pace.minBytesPerSecond * elapsedMs) / 1000;
}

/** Whether such a body is past its grace and behind the pace: its request is cut. */
export function overPace(pace: BodyPace, elapsedMs: number, received: number): boolean {
  return elapsedMs > pace.graceMs && behindPace(pace, elapsedMs, received);
}

/**
 * Ends a request whose body came too slowly: a 408 that says so when no answer has begun, and the connection
 * closed either way (the rest of the body is not waited for).
 */
export function cutSlowBody(res: ServerResponse, pace: BodyPace, received: number): void {
  const socket = res.socket;
  if (res.headersSent || !socket) {
    socket?.destroy();
    return;
  }
  const body = `the request body came too slowly (${received} bytes): send it within ${pace.graceMs / 1000} s, or at ${pace.minBytesPerSecond / 1024} KiB/s at least\n`;
  res.writeHead(408, { ...securityHeaders(), 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(body), Connection: 'close' });
  // Closed once the answer is out: Node would otherwise go on reading the dribble to discard it.
  res.end(body, () => socket.destroy());
}
