import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type RequestListener, type Server, type ServerOptions } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createSecureContext } from 'node:tls';
import { isLoopbackHost } from '../access/auth.js';

/** Certificate and key (PEM files) that make serve speak HTTPS and WSS. */
export interface HttpsFiles {
  certFile: string;
  keyFile: string;
}

/** Misconfigured HTTPS files: the message says which file and why. */
export class HttpsConfigError extends Error {
  override readonly name = 'HttpsConfigError';
}

function read(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new HttpsConfigError(`cannot read the HTTPS ${what} ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
}

/**
 * The listener serve answers on: plain HTTP, or HTTPS when given a certificate and key. Both are `http.Server`s
 * to the rest of serve (https.Server extends it), so routing and the WebSocket upgrade stay the same.
 */
export function createListener(handler: RequestListener, https: HttpsFiles | undefined, options: ServerOptions = {}): Server {
  if (!https) return createHttpServer(options, handler);
  const cert = read(https.certFile, 'certificate');
  const key = read(https.keyFile, 'private key');
  try {
    // Fails here, at start-up, on a key that does not belong to the certificate or a file that is not PEM.
    createSecureContext({ cert, key });
  } catch (err) {
    throw new HttpsConfigError(`HTTPS certificate ${https.certFile} and key ${https.keyFile} do not work together: ${err instanceof Error ? err.message : String(err)}`);
  }
  return createHttpsServer({ ...options, cert, key, minVersion: 'TLSv1.2' }, handler);
}

/** What to warn about before serving: a token and the cluster's state crossing the network in clear text. */
export function plainTextWarning(host: string, https: HttpsFiles | undefined): string | null {
  if (https || isLoopbackHost(host)) return null;
  return `warning: serving on ${host} over plain HTTP: the token and the cluster's state cross the network in clear text; use --tls-cert and --tls-key for HTTPS`;
}
