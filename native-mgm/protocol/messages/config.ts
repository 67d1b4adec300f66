import { decodeConfig } from '../../config/decode.js';
import type { ClusterConfig } from '../../config/cluster-config.js';
import { ProtocolError } from '../../errors.js';
import type { Reply } from '../frames.js';
import { acceptReply } from './reply-fields.js';

/**
 * `get config reply` (spec §4.18): `result: Ok` with a base64 body of the packed configuration, or the server's
 * error text (`Nodeid 1000 is greater than max nodeid 255. `) as a CommandFailedError.
 */
export function parseConfigReply(reply: Reply): ClusterConfig {
  return decodeConfig(parseConfigBody(reply));
}

/** The reply's base64 body, checked but not decoded: a watcher compares it with the last one before decoding. */
export function parseConfigBody(reply: Reply): string {
  const { fields, reply: r } = acceptReply(reply, 'get config');
  fields.expectResult();
  const encoding = fields.optStr('Content-Transfer-Encoding');
  if (encoding !== undefined && encoding !== 'base64') throw new ProtocolError('"get config" body is not base64', encoding);
  if (r.body === null) throw new ProtocolError('"get config" reply has no body');
  return r.body;
}
