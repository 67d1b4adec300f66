import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EngineHandlers } from '../contract/page-safe/api.js';
import { escapedJson } from '../contract/page-safe/outside-text.js';
import type { EngineHost } from '../engine/core/engine-host.js';
import { admit, checkServeOptions, tokenCookie, type AccessPolicy } from './access/auth.js';
import { BAD_MESSAGE, dispatchRequest } from './transport/bridge.js';
import { DEFAULT_BODY_PACE, type BodyPace } from './access/body-pace.js';
import { guardConnectionSlots } from './access/connection-slots.js';
import { DEFAULT_READY_WITHIN_MS, engineReady } from './engine-ready.js';
import { EXPORT_PATH, streamExport } from './http/export-route.js';
import { createListener, type HttpsFiles } from './transport/https-listener.js';
import { createMetricsExporter, type MetricsExporter } from './metrics/exporter.js';
import { securityHeaders } from './http/security-headers.js';
import { call, handleRuns, isRunsPath } from './http/runs-http.js';
import { DEFAULT_MAX_UPLOAD_BYTES, DEFAULT_UPLOAD_IDLE_MS, handleRecordingUpload, RECORDINGS_PATH } from './http/recording-upload.js';
import { handleMaintenance, isMaintenancePath } from './http/maintenance-http.js';
import { handleIncidents, isIncidentsPath } from './http/incidents-http.js';
import { handleRolling, isRollingPath } from './http/rolling-http.js';
import { readStaticFile } from './http/static-files.js';
import { viewerHandlers } from './access/viewer-access.js';
import { viewerPush, withoutServerDetail } from './access/server-detail.js';
import { internalError, loggedHandlers, stderrLog, type ErrorLog } from './transport/internal-error.js';

export const BACKUPS_PATH = '/api/backups';
import { attachWebSocket, rejectUpgrade, WS_PATH } from './transport/ws-server.js';

export interface ServeOptions {
  engine: EngineHost;
  /** The built renderer (index.html and assets). */
  staticDir: string;
  host?: string;
  port?: number;
  token?: string;
  /** Let browsers change the server (clusters, settings, profiles, acknowledgements, maintenance windows); off by default. */
  allowChanges?: boolean;
  /** Connections open at once (HTTP and WebSocket); see connection-slots.ts for who gets a slot when full. */
  maxConnections?: number;
  /** Of `maxConnections`, slots kept for connections that have sent complete request headers. */
  reservedForRequests?: number;
  /** Connections still sending their request headers from one source address (an IPv6 /64). */
  maxPreHeaderPerSource?: number;
  /** WebSockets open at once; more upgrades get 503. */
  maxWebSockets?: number;
  /** Host names browsers may use for this server besides its address (`--allow-host`; DNS rebinding otherwise). */
  allowedHosts?: readonly string[];
  /** A client must have sent its request headers within this time (slowloris). */
  headersTimeoutMs?: number;
  /** WebSocket ping and heartbeat frame interval. */
  heartbeatMs?: number;
  /** Serve HTTPS and WSS with this certificate and key. */
  https?: HttpsFiles;
  /** A headless exporter: `/metrics` only, no dashboard, no API, no WebSocket. */
  metricsOnly?: boolean;
  /**
   * At most this long (ms) before listening, wait for the engine's first picture of its cluster (engine-ready.ts),
   * so a page opened at the URL has the grid to paint at once. 0: listen at once.
   */
  readyWithinMs?: number;
  /** The largest recording `POST /api/recordings` accepts (bytes). */
  maxUploadBytes?: number;
  /** An upload (and any request's body) is dropped when no byte came for this long (ms). */
  idleTimeoutMs?: number;
  /** How fast a request body must come (body-pace.ts). */
  bodyPace?: BodyPace;
  /** Where an internal error's detail goes (clients get only its id); stderr by default. */
  log?: ErrorLog;
}

export const DEFAULT_MAX_CONNECTIONS = 256;
/** Far above a browser's 6 connections per server, even for a few behind one NAT or proxy. */
export const DEFAULT_MAX_PRE_HEADER_PER_SOURCE = 32;
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
/** A dashboard request's headers take ~1 KiB; Node's default is twice this. Larger ones get 431. */
export const MAX_HEADER_BYTES = 8 * 1024;

export interface ServeServer {
  readonly host: string;
  readonly port: number;
  /** What to open in a browser; carries the token, if any. */
  readonly url: string;
  /** Why the engine had no status of its cluster when listening began (a connection error, a refusal); null if it had one. */
  readonly notReady: string | null;
  /** Stops accepting, closes WebSockets and HTTP connections. The engine is the caller's to close. */
  close(): Promise<void>;
}

/** `[::1]` as a URL writes it; the socket API wants `::1`. */
export function bindAddress(host: string): string {
  return host.replace(/^\[(.*)\]$/, '$1');
}

function reply(res: ServerResponse, status: number, contentType: string, body: string | Buffer, extra: Record<string, string> = {}): void {
  res.writeHead(status, { ...securityHeaders(), 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body), ...extra });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}

const text = (res: ServerResponse, status: number, body: string): void => reply(res, status, 'text/plain; charset=utf-8', `${body}\n`);

async function snapshot(handlers: EngineHandlers, url: URL, res: ServerResponse): Promise<void> {
  const clusterId = url.searchParams.get('clusterId') ?? undefined;
  const result = await dispatchRequest(handlers, 'getSnapshot', clusterId === undefined ? {} : { clusterId });
  if (result.ok) return reply(res, 200, 'application/json; charset=utf-8', escapedJson(result.response), { 'Cache-Control': 'no-store' });
  const status = ({ [BAD_MESSAGE]: 400, BAD_REQUEST: 400, NOT_FOUND: 404 } as Record<string, number>)[result.error.code] ?? 500;
  reply(res, status, 'application/json; charset=utf-8', escapedJson({ error: result.error }), { 'Cache-Control': 'no-store' });
}

async function metrics(exporter: MetricsExporter, url: URL, res: ServerResponse): Promise<void> {
  const result = await exporter.scrape(url.searchParams.get('cluster') ?? undefined);
  if (!result.ok) return text(res, result.status, result.message);
  reply(res, 200, exporter.contentType, result.body, { 'Cache-Control': 'no-store' });
}

const EXPORTER_PAGE = 'ndbtop metrics exporter (--metrics-only): Prometheus metrics at /metrics, one cluster with /metrics?cluster=NAME';

/**
 * Serve mode's HTTP side: the renderer's files, `/api/snapshot`, `/metrics`, and the contract on `/ws`.
 * Refuses (ServeConfigError) to bind a non-loopback address without a token.
 */
export async function startServeServer(options: ServeOptions): Promise<ServeServer> {
  const host = bindAddress(options.host ?? '127.0.0.1');
  const { engine, token, staticDir } = options;
  checkServeOptions(host, token);
  // Browsers only ever get these: what a viewer may not change is refused here, whatever the transport.
  const log = options.log ?? stderrLog;
  const handlers = loggedHandlers(withoutServerDetail(viewerHandlers(engine.handlers, options.allowChanges === true)), log);
  const exporter = createMetricsExporter(handlers);
  const access: AccessPolicy = {
    token,
    hosts: { bound: host, port: 0, secure: options.https !== undefined, names: (options.allowedHosts ?? []).map((n) => n.toLowerCase()) },
  };

  const clusterScope = (url: URL): { clusterId?: string } => {
    const clusterId = url.searchParams.get('clusterId');
    return clusterId === null ? {} : { clusterId };
  };
  const idleMs = options.idleTimeoutMs ?? DEFAULT_UPLOAD_IDLE_MS;
  const route = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const admission = admit(req, access);
    // A refused client's connection is not kept alive: it would hold a slot without any token.
    if (!admission.ok) return reply(res, admission.status, 'text/plain; charset=utf-8', `${admission.reason}\n`, { Connection: 'close' });
    const url = new URL(req.url ?? '/', 'http://localhost');
    // Run marks are a benchmark script's POSTs: admitted by the token like everything, never by --allow-actions.
    if (!options.metricsOnly && isRunsPath(url.pathname)) return handleRuns(handlers, req, res, url);
    if (!options.metricsOnly && url.pathname === RECORDINGS_PATH) {
      return handleRecordingUpload(engine, req, res, url, { allowChanges: options.allowChanges === true, maxBytes: options.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES, idleMs, log });
    }
    if (!options.metricsOnly && isMaintenancePath(url.pathname)) return handleMaintenance(handlers, req, res, url);
    if (!options.metricsOnly && isIncidentsPath(url.pathname)) return handleIncidents(handlers, req.method ?? 'GET', res, url);
    // Gated like every operator action by the handlers themselves (--allow-actions), not here.
    if (!options.metricsOnly && isRollingPath(url.pathname)) return handleRolling(handlers, req, res, url);
    if (req.method !== 'GET' && req.method !== 'HEAD') return reply(res, 405, 'text/plain; charset=utf-8', 'Method Not Allowed\n', { Allow: 'GET, HEAD' });
    if (url.pathname === '/metrics') return metrics(exporter, url, res);
    if (options.metricsOnly) return url.pathname === '/' ? text(res, 200, EXPORTER_PAGE) : text(res, 404, 'Not Found');
    if (url.pathname === '/api/snapshot') return snapshot(handlers, url, res);
    // The running backup and those seen before (`ndbtop backup status --url`).
    if (url.pathname === BACKUPS_PATH) return call(handlers, res, 'getBackups', clusterScope(url), 200);
    if (url.pathname === EXPORT_PATH) return streamExport(handlers, url, res);
    if (url.pathname === WS_PATH) return text(res, 426, 'Upgrade Required');
    const file = await readStaticFile(staticDir, url.pathname);
    if (!file) return text(res, 404, 'Not Found');
    // The page was opened with ?token=…; its relative asset URLs and API calls carry it as a cookie from here on.
    const cookie: Record<string, string> = token !== undefined && url.searchParams.has('token') ? { 'Set-Cookie': tokenCookie(token, options.https !== undefined) } : {};
    reply(res, 200, file.contentType, file.body, { 'Cache-Control': file.cacheControl, ...cookie });
  };

  const headersTimeout = options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS;
  // No whole-request limit (a recording over a slow link takes as long as it takes): headers must come within
  // headersTimeout, a body at the pace connection-slots.ts checks, and after them a connection is dropped once
  // idle for idleMs (the socket's timeout; a WebSocket turns it off for itself, having pings of its own). Node's
  // keepAliveTimeout (5 s) closes idle keep-alives; the slots take them back sooner when needed.
  const limits = { headersTimeout, requestTimeout: 0, connectionsCheckingInterval: Math.min(1000, headersTimeout / 2), maxHeaderSize: MAX_HEADER_BYTES };
  const server = createListener(
    (req, res) => {
    route(req, res).catch((err: unknown) => {
      // What failed may name the server's paths, SQL or hosts: the client gets an id to quote, the log the detail.
      const internal = internalError(err, log);
      if (!res.headersSent) text(res, 500, `Internal Server Error: ${internal.message}`);
      else res.destroy();
    });
    },
    options.https,
    limits,
  );
  const ws = options.metricsOnly ? null : attachWebSocket(server, { handlers, subscribe: (l) => engine.subscribe((m) => l(viewerPush(m))) }, access, { heartbeatMs: options.heartbeatMs, maxClients: options.maxWebSockets });
  // Connections must not exhaust file descriptors, nor can silent, dribbling or idle ones take every slot (the
  // timeouts free them only within seconds).
  const closeConnections = guardConnectionSlots(server, {
    maxConnections: options.maxConnections ?? DEFAULT_MAX_CONNECTIONS,
    // A quarter (64 of 256): room for the pages' requests and WebSockets whatever silent sockets do.
    reservedForRequests: options.reservedForRequests ?? Math.ceil((options.maxConnections ?? DEFAULT_MAX_CONNECTIONS) / 4),
    maxPreHeaderPerSource: options.maxPreHeaderPerSource ?? DEFAULT_MAX_PRE_HEADER_PER_SOURCE,
    bodyPace: options.bodyPace ?? DEFAULT_BODY_PACE,
    unreadWebSocket: (socket) => ws?.isUnread(socket) ?? false,
  });
  // A little longer than the upload's own idle limit, so a stalled upload gets its clear 408 first.
  server.timeout = idleMs + 5000;
  // The slots' upgrade listener means Node no longer answers an upgrade as a plain request: with no WebSocket
  // served, an upgrade would wait for ever in its slot.
  if (!ws) server.on('upgrade', (_req, socket) => rejectUpgrade(socket, 404, 'Not Found'));

  const notReady = await engineReady(engine, options.readyWithinMs ?? DEFAULT_READY_WITHIN_MS);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 8080, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  access.hosts.port = port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  const url = `${options.https ? 'https' : 'http'}://${urlHost}:${port}/${token === undefined ? '' : `?token=${encodeURIComponent(token)}`}`;

  return {
    host,
    port,
    url,
    notReady,
    close: () =>
      new Promise<void>((resolve) => {
        ws?.close();
        server.close(() => resolve());
        server.closeAllConnections();
        closeConnections();
      }),
  };
}
