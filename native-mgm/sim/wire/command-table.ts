import { encodeVersion } from '../../version.js';

/**
 * The server's command table (spec §4.0): which commands exist and which arguments each one takes. The parser
 * checks requests against it; handlers live elsewhere.
 */
export type ArgType = 'int' | 'string';
export interface ArgSpec {
  name: string;
  type: ArgType;
  mandatory: boolean;
}
/**
 * What the server reads from the socket after a request's empty line, before it answers: `set ports` reads
 * "bulk" lines up to another empty line, `set config` a body of Content-Length bytes and one LF (spec §4.0,
 * §4.22). Left unread, those bytes would be parsed as commands.
 */
export type Trailer = { kind: 'lines-to-empty' } | { kind: 'bytes'; count: number };
export interface CommandSpec {
  name: string;
  args: readonly ArgSpec[];
  /** Packed version of the first server that knows the command; older ones answer `Unknown command`. */
  since?: number;
  trailer?: (args: ReadonlyMap<string, number | string>) => Trailer | null;
}

const I = (name: string): ArgSpec => ({ name, type: 'int', mandatory: true });
const i = (name: string): ArgSpec => ({ name, type: 'int', mandatory: false });
const S = (name: string): ArgSpec => ({ name, type: 'string', mandatory: true });
const s = (name: string): ArgSpec => ({ name, type: 'string', mandatory: false });

const GET_CONFIG = [I('version'), i('node'), i('nodetype'), i('from_node')];
const SET_CONFIG = [I('Content-Length'), S('Content-Type'), S('Content-Transfer-Encoding')];
const LOGLEVEL = [I('node'), I('category'), I('level')];

const TABLE: Record<string, readonly ArgSpec[]> = {
  'get version': [],
  'set clientversion': [I('major'), I('minor'), I('build')],
  'get status': [s('types')],
  'get mgmd nodeid': [],
  'check connection': [],
  'get session id': [],
  'get session': [I('id')],
  'list sessions': [],
  'purge stale sessions': [],
  'listen event': [i('node'), i('parsable'), S('filter')],
  'get info clusterlog': [],
  'set logfilter': [I('level'), I('enable')],
  'get cluster loglevel': [],
  'set cluster loglevel': LOGLEVEL,
  'set loglevel': LOGLEVEL,
  'dump events': [I('type'), s('nodes')],
  'dump state': [I('node'), S('args')],
  'start backup': [i('completed'), i('backupid'), i('backuppoint'), s('encryption_password'), i('password_length')],
  'abort backup': [I('id')],
  'restart node v2': [S('node'), i('initialstart'), i('nostart'), i('abort'), i('force')],
  'restart node': [S('node'), i('initialstart'), i('nostart'), i('abort')],
  'restart all': [i('initialstart'), i('nostart'), i('abort')],
  'stop v2': [S('node'), I('abort'), i('force')],
  stop: [S('node'), I('abort')],
  'stop all': [I('abort'), s('stop')],
  start: [I('node')],
  'start all': [],
  'enter single user': [I('nodeId')],
  'exit single user': [],
  'report event': [I('length'), S('data')],
  'get config': GET_CONFIG,
  'get config_v2': GET_CONFIG,
  'show config': [s('Section'), i('NodeId'), s('Name')],
  'show variables': [],
  'end session': [],
  bye: [],
  'start tls': [],
  'list certs': [],
  'get tls stats': [],
  'get nodeid': [
    I('version'),
    I('nodetype'),
    s('transporter'),
    i('nodeid'),
    S('user'),
    S('password'),
    S('public key'),
    s('endian'),
    s('name'),
    i('timeout'),
    i('log_event'),
  ],
  'transporter connect': [],
  'set ports': [I('node'), I('num_ports')],
  'insert error': [I('node'), I('error'), i('extra')],
  'set trace': [I('node'), I('trace')],
  'log signals': [I('node'), S('blocks'), I('in'), I('out')],
  'start signallog': [I('node')],
  'stop signallog': [I('node')],
  'set parameter': [I('node'), I('parameter'), S('value')],
  'set connection parameter': [I('node1'), I('node2'), I('param'), I('value')],
  'get connection parameter': [I('node1'), I('node2'), I('param')],
  'set config': SET_CONFIG,
  'set config_v2': SET_CONFIG,
  'reload config': [s('config_filename'), i('mycnf'), i('force')],
  'create nodegroup': [S('nodes')],
  'drop nodegroup': [I('ng')],
};

/** `set config` body limit (spec §1.6). */
const MAX_CONFIG_BYTES = 1024 * 1024;

/**
 * The server reads the body only when the header is one it handles (type, encoding, 0 < length <= 1 MiB), and
 * then Content-Length bytes plus the LF after them. That condition and the extra LF are not in the spec
 * (it names only the body and its limit); they follow MgmApiSession::setConfig.
 */
function configBody(args: ReadonlyMap<string, number | string>): Trailer | null {
  const length = args.get('Content-Length');
  if (args.get('Content-Type') !== 'ndbconfig/octet-stream' || args.get('Content-Transfer-Encoding') !== 'base64') return null;
  if (typeof length !== 'number' || length === 0 || length > MAX_CONFIG_BYTES) return null;
  return { kind: 'bytes', count: length + 1 };
}

const TRAILERS: Record<string, CommandSpec['trailer']> = {
  'set ports': () => ({ kind: 'lines-to-empty' }),
  'set config': configBody,
  'set config_v2': configBody,
};

/**
 * Commands the spec dates: `set clientversion` from 8.0.20 (§4.2), `start tls` from 8.3 (§9). `list certs` and
 * `get tls stats` are dated with it: the spec lists them only among the 8.3 TLS commands.
 */
const TLS_SINCE = encodeVersion(8, 3, 0);
const SINCE: Record<string, number> = {
  'set clientversion': encodeVersion(8, 0, 20),
  'start tls': TLS_SINCE,
  'list certs': TLS_SINCE,
  'get tls stats': TLS_SINCE,
};

export const COMMANDS: ReadonlyMap<string, CommandSpec> = new Map(
  Object.entries(TABLE).map(([name, args]): [string, CommandSpec] => {
    const trailer = TRAILERS[name];
    const since = SINCE[name];
    return [name, { name, args, ...(trailer ? { trailer } : {}), ...(since !== undefined ? { since } : {}) }];
  }),
);
