import type { Socket } from 'node:net';
import { AbortedError, ConnectionClosedError, ProtocolError, TimeoutError } from '../../errors.js';
import { splitReplyLine } from '../../protocol/kv.js';

/** What the server said to `start tls` (spec §9): its result, or the parser error of a server without the command. */
export type StartTlsAnswer = { kind: 'result'; result: string } | { kind: 'parser-error'; message: string };

const REQUEST = 'start tls\n\n';
/** `start tls reply` plus a result line is far below this; more means a server that is not speaking to us. */
const MAX_REPLY_BYTES = 1024;

export function parseStartTlsReply(text: string): StartTlsAnswer {
  const lines = text.split('\n').filter((l) => l !== '');
  const first = lines[0] ?? '';
  if (first.startsWith('result: ')) return { kind: 'parser-error', message: first.slice('result: '.length) };
  if (first !== 'start tls reply') throw new ProtocolError('unexpected reply to start tls', JSON.stringify(first));
  const result = lines.slice(1).map(splitReplyLine).find((kv) => kv?.[0] === 'result')?.[1];
  if (result === undefined) throw new ProtocolError('start tls reply without result');
  return { kind: 'result', result };
}

/**
 * Sends `start tls` on a fresh clear-text socket and reads exactly its reply. The server sends nothing more
 * until our ClientHello, so the socket is left paused with no unread bytes, ready for the TLS client.
 */
export function askStartTls(socket: Socket, where: string, timeoutMs: number, signal: AbortSignal): Promise<StartTlsAnswer> {
  return new Promise((resolve, reject) => {
    let text = '';
    const finish = (outcome: StartTlsAnswer | Error): void => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('close', onClose);
      socket.off('error', onError);
      signal.removeEventListener('abort', onAbort);
      socket.pause();
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    const onData = (chunk: Buffer): void => {
      text += chunk.toString('utf8');
      const end = text.indexOf('\n\n');
      if (end >= 0 && end + 2 !== text.length) return finish(new ProtocolError('bytes after the start tls reply'));
      if (end >= 0) {
        try {
          finish(parseStartTlsReply(text));
        } catch (err) {
          finish(err as Error);
        }
      } else if (text.length > MAX_REPLY_BYTES) finish(new ProtocolError('start tls reply too long'));
    };
    const onClose = (): void => finish(new ConnectionClosedError(`management server ${where} closed the connection after start tls`));
    const onError = (err: Error): void => finish(new ConnectionClosedError(`connection to ${where} failed: ${err.message}`));
    const onAbort = (): void => finish(new AbortedError('start tls'));
    if (signal.aborted) return reject(new AbortedError('start tls'));
    const timer = setTimeout(() => finish(new TimeoutError(`"start tls" on ${where}`, timeoutMs)), timeoutMs);
    socket.on('data', onData);
    socket.once('close', onClose);
    socket.once('error', onError);
    signal.addEventListener('abort', onAbort, { once: true });
    socket.write(REQUEST);
  });
}
