import type { ConnectionView } from '../../contract/schemas/snapshot.js';
import type { TlsView } from '../../contract/schemas/tls.js';
import type { LinkState, SessionInfo } from '../../../native-mgm/index.js';
import type { ConnectionInput } from './tracker-input.js';

export interface LinkPicture {
  connectstring: string;
  command: LinkState | null;
  session: SessionInfo | null;
  events: LinkState | null;
  /** The management server of the first session: being live anywhere else is "failed over". */
  firstHostIndex: number | null;
  lastError: string | null;
  /** Next attempt at a first connection, while none has succeeded. */
  retryAt: number | null;
  /** Set when the connectstring itself is unusable: nothing will be tried. */
  fatal: boolean;
  /** Connected, but `get status` went unanswered for STALE_AFTER_POLLS poll intervals. */
  stale: boolean;
  /** Connected, but the server refused `get status` for this session (it requires TLS and the session has none). */
  refused: boolean;
  /** Connected, but `get status` was answered with the server's own words instead (UnexpectedReplyError): a server starting. */
  notReady: boolean;
  /** How the command session is secured; absent when the monitor has no TLS set-up. */
  tls?: TlsView;
  /** host:port of management servers added from the configuration. */
  configMgmds: string[];
}

function commandStatus(p: LinkPicture): ConnectionView['status'] {
  const s = p.command;
  if (p.fatal || !s || s.status === 'closed') return p.fatal || s ? 'offline' : 'connecting';
  if (s.status === 'connected' && p.refused) return 'refused';
  if (s.status === 'connected' && p.notReady) return 'not-ready';
  if (s.status === 'connected' && p.stale) return 'stale';
  if (s.status === 'connected') return s.hostIndex !== p.firstHostIndex ? 'failed-over' : 'live';
  return s.status === 'reconnecting' ? 'reconnecting' : 'connecting';
}

function eventStatus(s: LinkState | null, fatal: boolean): ConnectionView['eventStream']['status'] {
  if (fatal || s?.status === 'closed') return 'offline';
  if (s?.status === 'connected') return 'live';
  return s?.status === 'reconnecting' ? 'reconnecting' : 'connecting';
}

/** The header's words for what the two links are doing. */
export function connectionInput(p: LinkPicture): ConnectionInput {
  const s = p.command;
  const live = s?.status === 'connected' && s.host !== null && s.port !== null;
  return {
    status: commandStatus(p),
    connectstring: p.connectstring,
    mgmd: live && s.host !== null && s.port !== null ? { host: s.host, port: s.port, nodeId: p.session?.mgmdNodeId ?? null, since: s.since } : null,
    serverVersion: p.session?.server.string ?? null,
    failovers: s?.failovers ?? 0,
    lastError: p.lastError,
    retryAt: p.retryAt,
    eventStream: { status: eventStatus(p.events, p.fatal) },
    ...(p.tls ? { tls: p.tls } : {}),
    ...(p.configMgmds.length > 0 ? { configMgmds: [...p.configMgmds] } : {}),
  };
}
