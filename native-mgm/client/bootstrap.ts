import { ServerParserError } from '../errors.js';
import { parseMgmdNodeIdReply } from '../protocol/messages/mgmd-nodeid.js';
import { parseResultReply } from '../protocol/messages/result.js';
import { parseVersionReply } from '../protocol/messages/version.js';
import type { ServerVersion } from '../types.js';
import { encodeVersion } from '../version.js';
import type { MgmConnection, RequestOptions } from './connection.js';

export interface SessionInfo {
  server: ServerVersion;
  /** Node id of the management server this session talks to. */
  mgmdNodeId: number;
}

/**
 * The version ndbtop announces. Anything >= 8.0.22 makes `get status` include `is_single_user` (spec §3, §4.2),
 * which the dashboard shows.
 */
export const CLIENT_VERSION = { major: 8, minor: 4, build: 3 } as const;
const SET_CLIENTVERSION_SINCE = encodeVersion(8, 0, 20);

/** Session start as mgmapi does it (spec §3): get version, set clientversion where the server knows it. */
export async function bootstrapSession(conn: MgmConnection, options: RequestOptions): Promise<SessionInfo> {
  const server = await conn.request('get version', [], { kind: 'kv', header: 'version' }, parseVersionReply, options);
  if (server.id >= SET_CLIENTVERSION_SINCE) {
    const args = [
      ['major', CLIENT_VERSION.major],
      ['minor', CLIENT_VERSION.minor],
      ['build', CLIENT_VERSION.build],
    ] as const;
    try {
      await conn.request('set clientversion', args, { kind: 'kv', header: 'set clientversion reply' }, (r) => parseResultReply(r, 'set clientversion'), options);
    } catch (err) {
      // A server that reports >= 8.0.20 but lacks the command: carry on without is_single_user, as mgmapi does.
      if (!(err instanceof ServerParserError)) throw err;
    }
  }
  const mgmdNodeId = await conn.request('get mgmd nodeid', [], { kind: 'kv', header: 'get mgmd nodeid reply' }, parseMgmdNodeIdReply, options);
  return { server, mgmdNodeId };
}
